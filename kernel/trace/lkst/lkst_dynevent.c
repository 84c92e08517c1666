// SPDX-License-Identifier: GPL-2.0
/*
 * LKST dynamic events: events at arbitrary kernel locations, defined in
 * lkst/dynamic_events in the syntax of ftrace's kprobe_events:
 *
 *   p:NAME SYMBOL[+OFFS] [FETCHARG ...]	a probe in a function
 *   r:NAME SYMBOL [FETCHARG ...]		at its return ($retval)
 *   -:NAME					remove it
 *
 * Each event is one kprobe (or kretprobe), registered disabled when the
 * event is defined and enabled only while the current maskset has a line
 * for it, as the tracepoint probes of the fixed events are attached.  The
 * fetchargs are parsed and fetched by kernel/trace's probe code
 * (trace_probe.c, trace_probe_tmpl.h); LKST keeps their values as the
 * four u64 arguments of its records and dispatches them like those of
 * any event, through the current maskset table.
 *
 * A dynamic event holds a reference on the module of its symbol, so that
 * the module cannot go away under it: rmmod fails, the module being in
 * use, until the event is removed.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>

#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif

#include "../trace.h"
#include "../trace_probe.h"
#include "../trace_probe_tmpl.h"
#include "../trace_probe_kernel.h"
#include "lkst_internal.h"

#define LKST_DYN_LOC	"dynamic_events"

struct lkst_dynevent {
	struct lkst_event_desc	desc;
	char			name[LKST_NAME_MAX];
	char			argfmt[LKST_NR_ARGS + 1];
	char			*symbol;
	unsigned long		offset;
	bool			is_return;
	bool			armed;
	bool			recorded;	/* was armed: records may exist */
	bool			has_string;	/* the last fetcharg */
	struct module		*mod;		/* pinned, NULL for vmlinux */
	struct kretprobe	rp;		/* rp.kp alone for p: */
	struct trace_probe	tp;		/* must be last: args[] */
};

/* Slot i is ID LKST_EV_DYN_FIRST + i; changed under lkst_mutex. */
static struct lkst_dynevent __rcu *lkst_dyn[LKST_EV_DYN_MAX];
/* The slot to try first: IDs are given out in turn. */
static unsigned int lkst_dyn_next;
/* Events registered so far: each one's generation, under lkst_mutex */
static u32 lkst_dyn_gen;

static struct lkst_dynevent *lkst_dyn_slot(unsigned int id)
{
	if (id < LKST_EV_DYN_FIRST || id > LKST_EV_DYN_LAST)
		return NULL;
	return rcu_dereference_check(lkst_dyn[id - LKST_EV_DYN_FIRST],
				     lockdep_is_held(&lkst_mutex));
}

/**
 * lkst_dynevent_desc - the description of a dynamic event
 * @id: event ID
 *
 * Caller holds lkst_mutex or the RCU read lock.
 *
 * Return: the event, or NULL if no dynamic event has @id.
 */
const struct lkst_event_desc *lkst_dynevent_desc(unsigned int id)
{
	struct lkst_dynevent *ev = lkst_dyn_slot(id);

	return ev ? &ev->desc : NULL;
}

/*
 * The probe context of kernel/trace's fetch code (trace_probe_tmpl.h),
 * as trace_kprobe.c defines it: registers, stack and entry data of a
 * kprobe.  Only numeric types reach here.
 */
static int __kprobes
process_fetch_insn(struct fetch_insn *code, void *rec, void *edata,
		   void *dest, void *base)
{
	struct pt_regs *regs = rec;
	unsigned long val;
	int ret;

retry:
	switch (code->op) {
	case FETCH_OP_REG:
		val = regs_get_register(regs, code->param);
		break;
	case FETCH_OP_STACK:
		val = regs_get_kernel_stack_nth(regs, code->param);
		break;
	case FETCH_OP_STACKP:
		val = kernel_stack_pointer(regs);
		break;
	case FETCH_OP_RETVAL:
		val = regs_return_value(regs);
		break;
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	case FETCH_OP_ARG:
		val = regs_get_kernel_argument(regs, code->param);
		break;
	case FETCH_OP_EDATA:
		val = *(unsigned long *)((unsigned long)edata + code->offset);
		break;
#endif
	case FETCH_NOP_SYMBOL:	/* a place holder, resolved at definition */
		code++;
		goto retry;
	default:
		ret = process_common_fetch_insn(code, &val);
		if (ret < 0)
			return ret;
	}
	code++;

	return process_fetch_insn_bottom(code, val, dest, base);
}

/* Fetch an argument and widen it to u64 (sign-extended if signed). */
static nokprobe_inline u64 lkst_dyn_fetch(struct probe_arg *arg,
					  struct pt_regs *regs, void *edata)
{
	union {
		u8	u8;
		u16	u16;
		u32	u32;
		u64	u64;
	} v = { .u64 = 0 };

	if (process_fetch_insn(arg->code, regs, edata, &v, NULL) < 0)
		return 0;
	switch (arg->type->size) {
	case 1:
		return arg->type->is_signed ? (u64)(s8)v.u8 : v.u8;
	case 2:
		return arg->type->is_signed ? (u64)(s16)v.u16 : v.u16;
	case 4:
		return arg->type->is_signed ? (u64)(s32)v.u32 : v.u32;
	default:
		return v.u64;
	}
}

/*
 * The context the probe hit.  x86 runs the handler of a kprobe's int3 as
 * an NMI (irqentry_nmi_enter()): the context of the code that hit the
 * breakpoint is the one below that NMI level.  Probes on ftrace or
 * optimized into a jump, and return probes (from the return trampoline),
 * run in the context they hit.  The probed address holds the int3 while
 * the probe is not optimized; kprobes' flags cannot tell, as they change
 * ahead of the code (the optimizer runs some jiffies later).
 */
static nokprobe_inline unsigned long lkst_dyn_pc_sub(struct lkst_dynevent *ev)
{
#ifdef CONFIG_X86
	if ((preempt_count() & NMI_MASK) && !ev->is_return &&
	    *(u8 *)ev->rp.kp.addr == INT3_INSN_OPCODE)
		return NMI_OFFSET + HARDIRQ_OFFSET;
#endif
	return 0;
}

/*
 * Whether the probed code ran with interrupts off.  The handler may run
 * from a breakpoint exception (int3, brk, ebreak) with interrupts masked:
 * @regs, the exception's frame or, for optimized and return probes, one
 * that the trampoline saved the flags into, tells.
 */
static nokprobe_inline bool lkst_dyn_irqs_off(struct pt_regs *regs)
{
#if defined(CONFIG_X86) || defined(CONFIG_ARM64) || defined(CONFIG_RISCV) || \
	defined(CONFIG_LOONGARCH)
	return regs_irqs_disabled(regs);
#else
	return irqs_disabled();
#endif
}

/*
 * A string, NUL-terminated, into the @words argument slots from @dst on
 * (at most 8 * @words - 1 characters), as O_PRINTK keeps its text.
 */
static nokprobe_inline void lkst_dyn_fetch_string(struct probe_arg *arg,
						  struct pt_regs *regs,
						  void *edata, u64 *dst,
						  unsigned int words)
{
	u32 dl = make_data_loc(words * sizeof(*dst), 0);

	process_fetch_insn(arg->code, regs, edata, &dl, dst);
}

/*
 * __lkst_dispatch() with the context of the probed code: the records
 * show it, and the instance's pid lists apply to the task the probe
 * interrupted.
 */
static nokprobe_inline void lkst_dyn_record(struct lkst_dynevent *ev,
					    struct pt_regs *regs, void *edata)
{
	const struct lkst_table_entry *e;
	unsigned long pc_sub = lkst_dyn_pc_sub(ev);
	unsigned int id = ev->desc.id;
	u64 a[LKST_NR_ARGS] = { };
	const struct lkst_table *t;
	struct lkst_handler *h;
	unsigned int i;

	t = rcu_dereference_sched(lkst_cur_table);
	if (unlikely(!t))
		return;
	e = &t->ent[id];
	h = READ_ONCE(e->handler);
	if (!h || h == &lkst_handler_nothing)
		return;
	/* in the context of the probed code, for every handler */
	if (lkst_ignore_pid(e->buf->tr, preempt_count() - pc_sub))
		return;
	/* the numeric fetchargs, then the string that may follow them */
	for (i = 0; i < ev->tp.nr_args - ev->has_string; i++)
		a[i] = lkst_dyn_fetch(&ev->tp.args[i], regs, edata);
	if (unlikely(ev->has_string))
		lkst_dyn_fetch_string(&ev->tp.args[i], regs, edata, &a[i],
				      LKST_NR_ARGS - i);
	if (likely(h == &lkst_handler_default))
		__lkst_record4_ctx(e->buf, id, LKST_HANDLER_DEFAULT, current->pid,
				   a[0], a[1], a[2], a[3], pc_sub,
				   lkst_dyn_irqs_off(regs));
	else
		lkst_call_handler(h, e->buf, id, current->pid, a[0], a[1],
				  a[2], a[3]);
}

/* kprobe handlers run with preemption disabled, as __lkst_dispatch needs */
static int __kprobes lkst_dyn_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	struct lkst_dynevent *ev = container_of(kp, struct lkst_dynevent, rp.kp);

	lkst_dyn_record(ev, regs, NULL);
	return 0;
}

static int __kprobes lkst_dyn_kretprobe_entry(struct kretprobe_instance *ri,
					      struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct lkst_dynevent *ev;

	if (unlikely(!rp))
		return -ENOENT;
	ev = container_of(rp, struct lkst_dynevent, rp);
	store_trace_entry_data(ri->data, &ev->tp, regs);
	return 0;
}

static int __kprobes lkst_dyn_kretprobe(struct kretprobe_instance *ri,
					struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct lkst_dynevent *ev;

	if (unlikely(!rp))
		return 0;
	ev = container_of(rp, struct lkst_dynevent, rp);
	lkst_dyn_record(ev, regs, ri->data);
	return 0;
}

/**
 * __lkst_dynevent_arm - enable or disable the kprobe of a dynamic event
 * @id: event ID
 * @on: enable
 *
 * Called by __lkst_events_attach() and __lkst_events_detach_unneeded():
 * the probe fires only while the current maskset uses the event.
 *
 * Return: 0 or the -errno of enable_kprobe().
 */
int __lkst_dynevent_arm(unsigned int id, bool on)
{
	struct lkst_dynevent *ev = lkst_dyn_slot(id);
	int ret = 0;

	lockdep_assert_held(&lkst_mutex);
	if (!ev)
		return -ENOENT;
	if (on == ev->armed)
		return 0;
	if (on)
		ret = enable_kprobe(&ev->rp.kp);
	else
		ret = disable_kprobe(&ev->rp.kp);
	if (!ret)
		ev->armed = on;
	if (on && !ret)
		ev->recorded = true;
	return ret;
}

static void lkst_dyn_free(struct lkst_dynevent *ev)
{
	trace_probe_cleanup(&ev->tp);
	kfree(ev->symbol);
	kfree(ev);
}

/* Offset of word @i in the command as error_log shows it (words joined) */
static int lkst_dyn_pos(int argc, const char **argv, int i)
{
	int j, pos = 0;

	for (j = 0; j < i && j < argc; j++)
		pos += strlen(argv[j]) + 1;
	return pos;
}

static void lkst_dyn_err(const char *cmd, int argc, const char **argv,
			 int i, enum lkst_err_type type)
{
	lkst_log_err(LKST_DYN_LOC, cmd, type, lkst_dyn_pos(argc, argv, i));
}

static struct lkst_dynevent *__lkst_dyn_lookup(const char *name)
{
	struct lkst_dynevent *ev;
	unsigned int i;

	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ev = rcu_dereference_protected(lkst_dyn[i],
					       lockdep_is_held(&lkst_mutex));
		if (ev && !strcmp(ev->name, name))
			return ev;
	}
	return NULL;
}

static bool lkst_dyn_name_valid(const char *name)
{
	size_t len = strlen(name);

	return len && len < LKST_NAME_MAX && name[0] >= 'A' &&
	       name[0] <= 'Z' &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == len;
}

/* How the trace file prints an argument of this fetch type */
static char lkst_dyn_argfmt(const struct fetch_type *t)
{
	if (t->is_string)
		return 's';
	if (!strcmp(t->name, "symbol"))
		return 'p';
	if (t->name[0] == 'x')
		return 'x';
	return t->is_signed ? 'd' : 'u';
}

/*
 * Parse the fetchargs into ev->tp with trace_probe's parser, which logs
 * its own errors (with the caret) to error_log.  Unnamed arguments are
 * named after their record slot, arg0 to arg3.
 */
static int lkst_dyn_parse_args(struct lkst_dynevent *ev, const char *cmd,
			       int argc, const char **argv)
{
	struct traceprobe_parse_context ctx = {
		.funcname = ev->symbol,
		.flags = TPARG_FL_KERNEL,
	};
	int i, j, nargs = argc - 2;
	struct probe_arg *arg;
	int ret = 0;

	if (ev->is_return)
		ctx.flags |= TPARG_FL_RETURN;
	else if (!kprobe_on_func_entry(NULL, ev->symbol, ev->offset))
		ctx.flags |= TPARG_FL_FENTRY;

	for (i = 0; i < nargs; i++) {
		trace_probe_log_set_index(i + 2);
		ret = traceprobe_parse_probe_arg(&ev->tp, i, argv[i + 2], &ctx);
		if (ret)
			break;
		arg = &ev->tp.args[i];
		/*
		 * A string fills the slots from its own to the last: it must
		 * be the last fetcharg.  symstr writes a whole symbol name.
		 */
		if (arg->count || (arg->type->is_string &&
				   (i != nargs - 1 ||
				    !strcmp(arg->type->name, "symstr")))) {
			lkst_dyn_err(cmd, argc, argv, i + 2,
				     LKST_ERR_DYN_NOT_NUMERIC);
			ret = -EINVAL;
			break;
		}
		if (!strchr(argv[i + 2], '=')) {
			kfree(arg->name);
			arg->name = kasprintf(GFP_KERNEL, "arg%d", i);
			if (!arg->name) {
				ret = -ENOMEM;
				break;
			}
		}
		/* The record's own fields in events/lkst/NAME/format */
		if (!lkst_tevent_arg_name_ok(arg->name)) {
			lkst_dyn_err(cmd, argc, argv, i + 2,
				     LKST_ERR_DYN_ARG_NAME);
			ret = -EINVAL;
			break;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(arg->name, ev->tp.args[j].name)) {
				lkst_dyn_err(cmd, argc, argv, i + 2,
					     LKST_ERR_DYN_ARG_NAME);
				ret = -EINVAL;
				break;
			}
		}
		if (ret)
			break;
		ret = traceprobe_update_arg(arg);
		if (ret) {
			lkst_dyn_err(cmd, argc, argv, i + 2,
				     LKST_ERR_DYN_SYMBOL);
			break;
		}
		ev->desc.args[i] = arg->name;
		ev->argfmt[i] = lkst_dyn_argfmt(arg->type);
		ev->has_string = arg->type->is_string;
	}
	traceprobe_finish_parse(&ctx);
	return ret;
}

/*
 * Pin the module of the probed address, then register the kprobe,
 * disabled.  The checks of kprobe events apply: lockdown, and no probe in
 * a function ftrace does not trace.
 */
static int lkst_dyn_register(struct lkst_dynevent *ev, const char *cmd,
			     int argc, const char **argv)
{
	struct kprobe *kp = &ev->rp.kp;
	unsigned long addr;
	struct module *mod;
	int ret;

	ret = security_locked_down(LOCKDOWN_KPROBES);
	if (ret) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_DYN_LOCKDOWN);
		return ret;
	}
	addr = kallsyms_lookup_name(ev->symbol);
	if (!addr) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_SYMBOL);
		return -ENOENT;
	}
	addr += ev->offset;
	if (traceprobe_within_notrace_func(addr)) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_NOTRACE);
		return -EINVAL;
	}
	scoped_guard(preempt) {
		mod = __module_text_address(addr);
		if (mod && !try_module_get(mod))
			ret = -ENOENT;
	}
	if (ret) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_MODULE);
		return ret;
	}

	kp->symbol_name = ev->symbol;
	kp->offset = ev->offset;
	kp->flags = KPROBE_FLAG_DISABLED;
	if (ev->is_return) {
		ev->rp.handler = lkst_dyn_kretprobe;
		if (ev->tp.entry_arg) {
			ev->rp.entry_handler = lkst_dyn_kretprobe_entry;
			ev->rp.data_size = traceprobe_get_entry_data_size(&ev->tp);
		}
		ret = register_kretprobe(&ev->rp);
	} else {
		kp->pre_handler = lkst_dyn_kprobe;
		ret = register_kprobe(kp);
	}
	switch (ret) {
	case 0:
		ev->mod = mod;
		return 0;
	case -ENOENT:
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_SYMBOL);
		break;
	case -EILSEQ:
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_BOUNDARY);
		break;
	case -ENOMEM:
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_NO_MEMORY);
		break;
	default:
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_NOT_PROBEABLE);
	}
	module_put(mod);
	return ret;
}

static void lkst_dyn_unregister(struct lkst_dynevent *ev)
{
	if (ev->is_return)
		unregister_kretprobe(&ev->rp);
	else
		unregister_kprobe(&ev->rp.kp);
	module_put(ev->mod);
}

static int __lkst_dyn_alloc_slot(void)
{
	unsigned int i, slot;

	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		slot = (lkst_dyn_next + i) % LKST_EV_DYN_MAX;
		if (!rcu_access_pointer(lkst_dyn[slot])) {
			lkst_dyn_next = (slot + 1) % LKST_EV_DYN_MAX;
			return slot;
		}
	}
	return -ENOSPC;
}

/* "p:NAME SYMBOL[+OFFS] [FETCHARG ...]" or "r:NAME SYMBOL [FETCHARG ...]" */
static int __lkst_dyn_create(const char *cmd, int argc, const char **argv)
{
	const char *name = argv[0] + 2;
	struct lkst_dynevent *ev;
	int nargs = argc - 2;
	long offset = 0;
	int slot, ret;
	char *plus;

	if (!lkst_dyn_name_valid(name)) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_DYN_NAME);
		return -EINVAL;
	}
	if (lkst_event_lookup(name)) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_NAME_EXISTS);
		return -EEXIST;
	}
	if (argc < 2) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_COMMAND);
		return -EINVAL;
	}
	if (nargs > LKST_NR_ARGS) {
		lkst_dyn_err(cmd, argc, argv, 2 + LKST_NR_ARGS,
			     LKST_ERR_DYN_TOO_MANY_ARGS);
		return -E2BIG;
	}

	ev = kzalloc(struct_size(ev, tp.args, nargs), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	ev->is_return = argv[0][0] == 'r';
	strscpy(ev->name, name);
	ev->symbol = kstrdup(argv[1], GFP_KERNEL);
	ret = trace_probe_init(&ev->tp, name, "lkst", false, nargs);
	if (!ev->symbol || ret) {
		ret = ret ?: -ENOMEM;
		goto free;
	}

	/* SYMBOL[+OFFS]: no raw address, no MOD:SYM, no %return */
	plus = strpbrk(ev->symbol, "+-");
	if (plus) {
		ret = kstrtol(plus, 0, &offset);
		*plus = '\0';
		if (ret || offset < 0 || offset > UINT_MAX) {
			lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_COMMAND);
			ret = -EINVAL;
			goto free;
		}
	}
	ev->offset = offset;
	if (!*ev->symbol || strpbrk(ev->symbol, ":%") || isdigit(*ev->symbol)) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_SYMBOL);
		ret = -EINVAL;
		goto free;
	}
	switch (traceprobe_nr_same_symbols(NULL, ev->symbol)) {
	case 0:
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_SYMBOL);
		ret = -ENOENT;
		goto free;
	case 1:
		break;
	default:
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_NOT_UNIQUE);
		ret = -EADDRNOTAVAIL;
		goto free;
	}
	ret = kprobe_on_func_entry(NULL, ev->symbol, ev->offset);
	if (ret == -ENOENT) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_SYMBOL);
		goto free;
	}
	if (ev->is_return && ret) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_RETPROBE);
		ret = -EINVAL;
		goto free;
	}

	ret = lkst_dyn_parse_args(ev, cmd, argc, argv);
	if (ret)
		goto free;
	for (slot = nargs; slot < LKST_NR_ARGS; slot++) {
		ev->desc.args[slot] = "-";
		ev->argfmt[slot] = '-';
	}

	slot = __lkst_dyn_alloc_slot();
	if (slot < 0) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_TOO_MANY);
		ret = -ENOSPC;
		goto free;
	}
	ret = lkst_dyn_register(ev, cmd, argc, argv);
	if (ret)
		goto free;

	ev->desc.id = LKST_EV_DYN_FIRST + slot;
	ev->desc.gen = ++lkst_dyn_gen;
	ev->desc.name = ev->name;
	ev->desc.argfmt = ev->argfmt;
	ev->desc.hook = ev->symbol;
	ret = lkst_tevent_add(&ev->desc);
	if (ret) {
		lkst_dyn_err(cmd, argc, argv, 0,
			     ret == -EEXIST ? LKST_ERR_NAME_EXISTS :
			     ret == -ENODEV ? LKST_ERR_TOO_MANY :
			     LKST_ERR_NO_MEMORY);
		lkst_dyn_unregister(ev);
		goto free;
	}
	rcu_assign_pointer(lkst_dyn[slot], ev);
	__lkst_vmcore_events_update();
	return 0;

free:
	lkst_dyn_free(ev);
	return ret;
}

/* Remove a dynamic event no maskset names. */
static void __lkst_dyn_remove(struct lkst_dynevent *ev)
{
	unsigned int id = ev->desc.id;

	/*
	 * Its ftrace type goes to the next event registered: no record of
	 * it may stay for that event's output to misread.
	 */
	if (ev->recorded)
		__lkst_buffers_clear();
	lkst_tevent_remove(id);
	__lkst_event_forget(id);
	RCU_INIT_POINTER(lkst_dyn[id - LKST_EV_DYN_FIRST], NULL);
	__lkst_vmcore_events_update();
	/*
	 * unregister_k*probe() waits for an RCU grace period, which began
	 * after the slot was cleared: the handlers are done, and so are the
	 * readers of the description (trace, available_events).
	 */
	lkst_dyn_unregister(ev);
	lkst_dyn_free(ev);
}

/* "-:NAME" */
static int __lkst_dyn_delete(const char *cmd, int argc, const char **argv)
{
	struct lkst_dynevent *ev;

	if (argc > 1) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_TOO_MANY_FIELDS);
		return -EINVAL;
	}
	ev = __lkst_dyn_lookup(argv[0] + 2);
	if (!ev) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_NO_SUCH_NAME);
		return -ENOENT;
	}
	if (__lkst_masksets_use_event(ev->desc.id)) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_IN_USE);
		return -EBUSY;
	}
	__lkst_dyn_remove(ev);
	return 0;
}

/**
 * lkst_dynevent_command - run one line written to dynamic_events
 * @cmd: "p:NAME SYMBOL[+OFFS] [FETCHARG ...]", "r:NAME SYMBOL
 *	 [FETCHARG ...]" or "-:NAME"; blank lines and comments are ignored
 *
 * Nothing is left half-created: on error, no event was added or removed,
 * and error_log says why.
 *
 * Return: 0; -EINVAL for a bad line or fetcharg, or a function ftrace
 * does not trace; -E2BIG for more than four fetchargs; -EEXIST if NAME
 * is an event already; -ENOENT for an unknown symbol or event;
 * -EADDRNOTAVAIL for a name several functions have; -EILSEQ for an
 * offset that is not an instruction boundary; -EBUSY to remove an event
 * a maskset names; -ENOSPC when every dynamic ID is taken; -EPERM under
 * lockdown; or the -errno of kprobes.
 */
int lkst_dynevent_command(const char *cmd)
{
	const char **argv;
	char *line, *p;
	int argc, ret;
	size_t len;

	line = kstrdup(cmd, GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	p = strchr(line, '#');
	if (p)
		*p = '\0';
	argv = (const char **)argv_split(GFP_KERNEL, line, &argc);
	kfree(line);
	if (!argv)
		return -ENOMEM;
	if (!argc) {
		argv_free((char **)argv);
		return 0;
	}
	/* error_log shows the words joined by one space, as trace_probe does */
	len = lkst_dyn_pos(argc, argv, argc);
	line = kmalloc(len, GFP_KERNEL);
	if (!line) {
		argv_free((char **)argv);
		return -ENOMEM;
	}
	for (p = line, ret = 0; ret < argc; ret++)
		p += sprintf(p, ret ? " %s" : "%s", argv[ret]);

	/* trace_probe_log, shared with the other probe events, wants it */
	mutex_lock(&dyn_event_ops_mutex);
	mutex_lock(&lkst_mutex);
	trace_probe_log_init("lkst: " LKST_DYN_LOC, argc, argv);
	if (strlen(argv[0]) < 2 || argv[0][1] != ':' ||
	    !strchr("pr-", argv[0][0])) {
		lkst_dyn_err(line, argc, argv, 0, LKST_ERR_DYN_COMMAND);
		ret = -EINVAL;
	} else if (argv[0][0] == '-') {
		ret = __lkst_dyn_delete(line, argc, argv);
	} else {
		ret = __lkst_dyn_create(line, argc, argv);
	}
	trace_probe_log_clear();
	mutex_unlock(&lkst_mutex);
	mutex_unlock(&dyn_event_ops_mutex);
	kfree(line);
	argv_free((char **)argv);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dynevent_command);

/**
 * lkst_dynevent_remove_all - remove every dynamic event, or none
 *
 * What opening dynamic_events with O_TRUNC does, as kprobe_events does:
 * if a maskset names one of the events, nothing is removed, and error_log
 * names the event.
 *
 * Return: 0; -EBUSY if a maskset names an event.
 */
int lkst_dynevent_remove_all(void)
{
	struct lkst_dynevent *ev;
	bool clear = false;
	unsigned int i;

	guard(mutex)(&lkst_mutex);
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ev = rcu_dereference_protected(lkst_dyn[i],
					       lockdep_is_held(&lkst_mutex));
		if (!ev)
			continue;
		if (__lkst_masksets_use_event(ev->desc.id)) {
			lkst_log_err(LKST_DYN_LOC, ev->name, LKST_ERR_IN_USE, 0);
			return -EBUSY;
		}
		clear |= ev->recorded;
	}
	/* One clear of the buffers for all the events that recorded */
	if (clear)
		__lkst_buffers_clear();
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ev = rcu_dereference_protected(lkst_dyn[i],
					       lockdep_is_held(&lkst_mutex));
		if (!ev)
			continue;
		ev->recorded = false;
		__lkst_dyn_remove(ev);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dynevent_remove_all);

/* dynamic_events: the definitions, in ID order, as they can be written */
void lkst_dynevents_print(struct seq_buf *s)
{
	struct lkst_dynevent *ev;
	unsigned int i, j;

	lockdep_assert_held(&lkst_mutex);
	for (i = LKST_EV_DYN_FIRST; i <= LKST_EV_DYN_LAST; i++) {
		ev = lkst_dyn_slot(i);
		if (!ev)
			continue;
		seq_buf_printf(s, "%c:%s %s", ev->is_return ? 'r' : 'p',
			       ev->name, ev->symbol);
		if (ev->offset)
			seq_buf_printf(s, "+%lu", ev->offset);
		for (j = 0; j < ev->tp.nr_args; j++)
			seq_buf_printf(s, " %s=%s", ev->tp.args[j].name,
				       ev->tp.args[j].comm);
		seq_buf_putc(s, '\n');
	}
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dynevents_print);

static int lkst_dynevent_show(struct seq_file *m, void *v)
{
	struct seq_buf s;

	guard(mutex)(&lkst_mutex);
	lkst_seq_buf_get(m, &s);
	lkst_dynevents_print(&s);
	lkst_seq_buf_commit(m, &s);
	return 0;
}

static int lkst_dynevent_open(struct inode *inode, struct file *filp)
{
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	/*
	 * As kprobe_events: "> dynamic_events" removes every event, or none
	 * and -EBUSY while a maskset names one.
	 */
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		ret = lkst_dynevent_remove_all();
		if (ret)
			return ret;
	}
	if (filp->f_mode & FMODE_READ)
		return single_open(filp, lkst_dynevent_show, NULL);
	return 0;
}

static int lkst_dynevent_create_fn(const char *raw_command)
{
	return lkst_dynevent_command(raw_command);
}

static ssize_t lkst_dynevent_write(struct file *filp, const char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	return trace_parse_run_command(filp, ubuf, cnt, ppos,
				       lkst_dynevent_create_fn);
}

static int lkst_dynevent_release(struct inode *inode, struct file *filp)
{
	if (filp->f_mode & FMODE_READ)
		return single_release(inode, filp);
	return 0;
}

static const struct file_operations lkst_dynevent_fops = {
	.open		= lkst_dynevent_open,
	.read		= seq_read,
	.write		= lkst_dynevent_write,
	.llseek		= tracing_lseek,
	.release	= lkst_dynevent_release,
};

int lkst_dynevent_create_files(struct dentry *top)
{
	if (!trace_create_file(LKST_DYN_LOC, TRACE_MODE_WRITE, top, NULL,
			       &lkst_dynevent_fops))
		return -ENOMEM;
	return 0;
}
