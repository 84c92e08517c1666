// SPDX-License-Identifier: GPL-2.0
/*
 * LKST dynamic events: LKST events at arbitrary kernel locations, bound to
 * ftrace's kprobe events.  A kprobe event is defined in dynamic_events or
 * kprobe_events, then bound to an LKST name in lkst/dynamic_events:
 *
 *   NAME GROUP/EVENT	the LKST event NAME records the hits of GROUP/EVENT
 *   -:NAME		unbind it
 *
 * The kprobe event's fetchargs, four at most, are the record's arguments.
 * LKST consumes the hits through the event's in-kernel consumer
 * (trace_kprobe_consumer_attach()), armed by the event table
 * (lkst_events.c) only while the current maskset has a line for the
 * event, as the tracepoint probes of the fixed events are attached, and
 * dispatches them like those of any event.  While
 * bound, the kprobe event cannot be removed.  Nothing pins a module:
 * a probe on MOD:SYM comes back with its module, as kprobe events do.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/unaligned.h>

#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif

#include "../trace.h"
#include "../trace_probe.h"
#include "lkst_internal.h"

#define LKST_DYN_LOC	"dynamic_events"

/* The fixed part of the fetched arguments, then room for a string */
#define LKST_DYN_FETCH_MAX	(2 * LKST_NR_ARGS * sizeof(u64))

struct lkst_dynevent {
	struct lkst_event_desc	desc;
	struct trace_probe_consumer consumer;
	struct trace_event_file	*file;		/* the kprobe event, held */
	char			*hook;		/* "GROUP/EVENT" */
	char			name[LKST_NAME_MAX];
	char			argfmt[LKST_NR_ARGS + 1];
	char			*args[LKST_NR_ARGS];	/* the kprobe's names */
	bool			has_string;	/* the last fetcharg */
};

/*
 * The bindings, by ID: slot i is ID LKST_EV_DYN_FIRST + i, under
 * lkst_mutex.  The event table (lkst_events.c) has their descriptions.
 */
static struct lkst_dynevent *lkst_dyn[LKST_EV_DYN_MAX];
/* Events bound so far: each one's generation, under lkst_mutex */
static u32 lkst_dyn_gen;

/*
 * An argument, fetched into @buf (packed: unaligned), widened to u64,
 * sign-extended if signed.
 */
static nokprobe_inline u64 lkst_dyn_arg(const struct probe_arg *arg,
					const void *buf)
{
	const void *p = buf + arg->offset;

	switch (arg->type->size) {
	case 1:
		return arg->type->is_signed ? (u64)*(s8 *)p : *(u8 *)p;
	case 2:
		return arg->type->is_signed ? (u64)(s16)get_unaligned((u16 *)p) :
					      get_unaligned((u16 *)p);
	case 4:
		return arg->type->is_signed ? (u64)(s32)get_unaligned((u32 *)p) :
					      get_unaligned((u32 *)p);
	default:
		return get_unaligned((u64 *)p);
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
static nokprobe_inline unsigned long lkst_dyn_pc_sub(struct kprobe *kp,
						     bool is_return)
{
#ifdef CONFIG_X86
	if ((preempt_count() & NMI_MASK) && !is_return &&
	    *(u8 *)kp->addr == INT3_INSN_OPCODE)
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
 * A hit of the kprobe event, armed: __lkst_dispatch() with the context of
 * the probed code, which the records show and the instance's pid lists
 * apply to.  The arguments are fetched only when the table routes the
 * event; a string, the last argument, fills the slots from its own on
 * (8 bytes a slot, NUL-terminated), as O_PRINTK keeps its text.
 */
static void lkst_dyn_hit(struct trace_probe_consumer *c, struct trace_probe *tp,
			 struct kprobe *kp, struct pt_regs *regs, void *edata)
{
	struct lkst_dynevent *ev = container_of(c, struct lkst_dynevent, consumer);
	unsigned long pc_sub = lkst_dyn_pc_sub(kp, c->is_return);
	u8 buf[LKST_DYN_FETCH_MAX] __aligned(sizeof(u64)) = { };
	unsigned int id = ev->desc.id, nr = tp->nr_args;
	const struct lkst_table_entry *e;
	u64 a[LKST_NR_ARGS] = { };
	const struct lkst_table *t;
	struct lkst_handler *h;
	unsigned int i, room;
	u32 dl;

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

	nr -= ev->has_string;
	room = ev->has_string ? (LKST_NR_ARGS - nr) * sizeof(u64) : 0;
	if (trace_kprobe_consumer_fetch(tp, regs, edata, buf, tp->size + room))
		return;
	for (i = 0; i < nr; i++)
		a[i] = lkst_dyn_arg(&tp->args[i], buf);
	if (unlikely(ev->has_string)) {
		dl = get_unaligned((u32 *)(buf + tp->args[nr].offset));
		if (get_loc_len(dl) <= room)
			memcpy(&a[nr], buf + get_loc_offs(dl), get_loc_len(dl));
	}

	if (likely(h == &lkst_handler_default))
		__lkst_record4_ctx(e->buf, id, LKST_HANDLER_DEFAULT, current->pid,
				   a[0], a[1], a[2], a[3], pc_sub,
				   lkst_dyn_irqs_off(regs));
	else
		lkst_call_handler(h, e->buf, id, current->pid, a[0], a[1],
				  a[2], a[3]);
}

NOKPROBE_SYMBOL(lkst_dyn_hit);

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

	lockdep_assert_held(&lkst_mutex);
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ev = lkst_dyn[i];
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
 * Take the arguments of the kprobe event, which are the record's: four
 * at most, numbers, and a string only last (it fills the slots left).
 * Their names are copied: a sibling probe of the event may go.
 */
static int lkst_dyn_take_args(struct lkst_dynevent *ev, const char *cmd,
			      int argc, const char **argv)
{
	struct trace_probe *tp;
	struct probe_arg *arg;
	unsigned int i;

	guard(mutex)(&event_mutex);
	tp = trace_probe_primary_from_call(ev->file->event_call);
	if (WARN_ON_ONCE(!tp))
		return -ENODEV;
	if (tp->nr_args > LKST_NR_ARGS) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_TOO_MANY_ARGS);
		return -E2BIG;
	}
	for (i = 0; i < tp->nr_args; i++) {
		arg = &tp->args[i];
		/* symstr writes a whole symbol name; arrays have no slot */
		if (arg->count || (arg->type->is_string &&
				   (i != tp->nr_args - 1 ||
				    !strcmp(arg->type->name, "symstr")))) {
			lkst_dyn_err(cmd, argc, argv, 1,
				     LKST_ERR_DYN_NOT_NUMERIC);
			return -EINVAL;
		}
		/* The record's own fields in events/lkst/NAME/format */
		if (!lkst_tevent_arg_name_ok(arg->name)) {
			lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_ARG_NAME);
			return -EINVAL;
		}
		ev->args[i] = kstrdup(arg->name, GFP_KERNEL);
		if (!ev->args[i])
			return -ENOMEM;
		ev->desc.args[i] = ev->args[i];
		ev->argfmt[i] = lkst_dyn_argfmt(arg->type);
		ev->has_string = arg->type->is_string;
	}
	for (; i < LKST_NR_ARGS; i++) {
		ev->desc.args[i] = "-";
		ev->argfmt[i] = '-';
	}
	/* No array: a number is 8 bytes at most, the string's data_loc 4 */
	if (WARN_ON_ONCE(tp->size > LKST_NR_ARGS * sizeof(u64)))
		return -E2BIG;
	return 0;
}

/*
 * Hold the kprobe event GROUP/EVENT (trace_get_event_file(): it cannot
 * be removed until it is put).  An event that exists but cannot be held
 * is ftrace's own, or on its way out with its module.
 */
static int lkst_dyn_hold(struct lkst_dynevent *ev, const char *cmd,
			 int argc, const char **argv)
{
	char *event = strchr(ev->hook, '/');
	struct trace_event_file *file;
	bool exists = false;

	*event = '\0';
	file = trace_get_event_file(NULL, ev->hook, event + 1);
	if (IS_ERR(file) && PTR_ERR(file) == -EINVAL) {
		scoped_guard(mutex, &event_mutex)
			exists = __find_event_file(top_trace_array(), ev->hook,
						   event + 1);
	}
	*event = '/';
	if (IS_ERR(file)) {
		lkst_dyn_err(cmd, argc, argv, 1, exists ?
			     LKST_ERR_DYN_NOT_KPROBE : LKST_ERR_DYN_NO_EVENT);
		return exists ? -EINVAL : -ENOENT;
	}
	/* Only kprobe events have this flag, and trace_probe_event calls */
	if (!(file->event_call->flags & TRACE_EVENT_FL_KPROBE)) {
		trace_put_event_file(file);
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_NOT_KPROBE);
		return -EINVAL;
	}
	ev->file = file;
	return 0;
}

static int lkst_dyn_attach(struct lkst_dynevent *ev, const char *cmd,
			   int argc, const char **argv)
{
	int ret;

	ev->consumer.hit = lkst_dyn_hit;
	ret = trace_kprobe_consumer_attach(ev->file->event_call, &ev->consumer);
	if (ret) {
		lkst_dyn_err(cmd, argc, argv, 1, ret == -EBUSY ?
			     LKST_ERR_DYN_BOUND : LKST_ERR_DYN_NOT_KPROBE);
		return ret == -EBUSY ? -EBUSY : -EINVAL;
	}
	return 0;
}

static void lkst_dyn_detach(struct lkst_dynevent *ev)
{
	trace_kprobe_consumer_detach(ev->file->event_call, &ev->consumer);
}

static void lkst_dyn_free(struct lkst_dynevent *ev)
{
	unsigned int i;

	if (ev->file)
		trace_put_event_file(ev->file);
	for (i = 0; i < LKST_NR_ARGS; i++)
		kfree(ev->args[i]);
	kfree(ev->hook);
	kfree(ev);
}

/* "NAME GROUP/EVENT" */
static int __lkst_dyn_bind(const char *cmd, int argc, const char **argv)
{
	const char *name = argv[0];
	struct lkst_dynevent *ev;
	int id, ret;

	if (!lkst_dyn_name_valid(name)) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_DYN_NAME);
		return -EINVAL;
	}
	if (lkst_event_lookup(name)) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_NAME_EXISTS);
		return -EEXIST;
	}
	id = __lkst_event_dyn_id();
	if (id < 0) {
		lkst_dyn_err(cmd, argc, argv, 0, LKST_ERR_TOO_MANY);
		return -ENOSPC;
	}

	ev = kzalloc_obj(*ev);
	if (!ev)
		return -ENOMEM;
	strscpy(ev->name, name);
	ev->hook = kstrdup(argv[1], GFP_KERNEL);
	if (!ev->hook) {
		ret = -ENOMEM;
		goto free;
	}
	ret = lkst_dyn_hold(ev, cmd, argc, argv);
	if (ret)
		goto free;
	ret = lkst_dyn_take_args(ev, cmd, argc, argv);
	if (ret)
		goto free;
	ret = lkst_dyn_attach(ev, cmd, argc, argv);
	if (ret)
		goto free;

	ev->desc.id = id;
	ev->desc.gen = ++lkst_dyn_gen;
	ev->desc.name = ev->name;
	ev->desc.argfmt = ev->argfmt;
	ev->desc.hook = ev->hook;
	ev->desc.call = ev->file->event_call;
	ev->desc.consumer = &ev->consumer;
	ret = lkst_tevent_add(&ev->desc);
	if (ret) {
		lkst_dyn_err(cmd, argc, argv, 0,
			     ret == -EEXIST ? LKST_ERR_NAME_EXISTS :
			     ret == -ENODEV ? LKST_ERR_TOO_MANY :
			     LKST_ERR_NO_MEMORY);
		goto detach;
	}
	lkst_dyn[id - LKST_EV_DYN_FIRST] = ev;
	__lkst_event_add(&ev->desc);
	__lkst_vmcore_events_update();
	return 0;

detach:
	lkst_dyn_detach(ev);
free:
	lkst_dyn_free(ev);
	return ret;
}

/*
 * The end of an unbinding, after __lkst_event_remove() took the event out
 * of the table and, if it recorded, the buffers were cleared: its ftrace
 * type goes to the next event bound, and no record of it may stay for
 * that event's output to misread.
 */
static void __lkst_dyn_release(struct lkst_dynevent *ev)
{
	unsigned int id = ev->desc.id;

	lkst_tevent_remove(id);
	lkst_dyn[id - LKST_EV_DYN_FIRST] = NULL;
	__lkst_vmcore_events_update();
	/*
	 * The detach waits for an RCU grace period, which began after the
	 * slot was cleared: the handlers are done, and so are the readers
	 * of the description (trace, available_events).
	 */
	lkst_dyn_detach(ev);
	lkst_dyn_free(ev);
}

/* Unbind a dynamic event no maskset names. */
static void __lkst_dyn_remove(struct lkst_dynevent *ev)
{
	bool recorded = __lkst_event_recorded(ev->desc.id);

	/* It records no more, then its records go */
	__lkst_event_remove(ev->desc.id);
	if (recorded)
		__lkst_buffers_clear();
	__lkst_dyn_release(ev);
}

/* "-:NAME" */
static int __lkst_dyn_unbind(const char *cmd, int argc, const char **argv)
{
	struct lkst_dynevent *ev;

	if (argc > 1) {
		lkst_dyn_err(cmd, argc, argv, 1, LKST_ERR_DYN_COMMAND);
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

/* GROUP/EVENT: two words of something, no more slashes */
static bool lkst_dyn_hook_valid(const char *hook)
{
	const char *slash = strchr(hook, '/');

	return slash && slash != hook && slash[1] && !strchr(slash + 1, '/');
}

/**
 * lkst_dynevent_command - run one line written to dynamic_events
 * @cmd: "NAME GROUP/EVENT" or "-:NAME"; blank lines and comments are
 *	 ignored
 *
 * Nothing is left half-done: on error, no event was bound or unbound,
 * and error_log says why.
 *
 * Return: 0; -EINVAL for a bad line or name, an event that is not a
 * kprobe event, or an argument LKST cannot record; -E2BIG for more than
 * four fetchargs; -EEXIST if NAME is an event already; -ENOENT for an
 * unknown kprobe event or LKST event; -EBUSY for a kprobe event bound
 * already, or to unbind an event a maskset names; -ENOSPC when every
 * dynamic ID is taken.
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
	/* error_log shows the words joined by one space */
	len = lkst_dyn_pos(argc, argv, argc);
	line = kmalloc(len, GFP_KERNEL);
	if (!line) {
		argv_free((char **)argv);
		return -ENOMEM;
	}
	for (p = line, ret = 0; ret < argc; ret++)
		p += sprintf(p, ret ? " %s" : "%s", argv[ret]);

	mutex_lock(&lkst_mutex);
	if (str_has_prefix(argv[0], "-:")) {
		ret = __lkst_dyn_unbind(line, argc, argv);
	} else if (strchr(argv[0], ':')) {
		/* p:NAME, r:NAME: the definitions of earlier kernels */
		lkst_dyn_err(line, argc, argv, 0, LKST_ERR_DYN_COMMAND);
		ret = -EINVAL;
	} else if (argc != 2 || !lkst_dyn_hook_valid(argv[1])) {
		/* under the wrong word, or after the line for a missing one */
		lkst_log_err(LKST_DYN_LOC, line, LKST_ERR_DYN_COMMAND,
			     argc == 1 ? strlen(line) :
			     lkst_dyn_pos(argc, argv, argc > 2 ? 2 : 1));
		ret = -EINVAL;
	} else {
		ret = __lkst_dyn_bind(line, argc, argv);
	}
	mutex_unlock(&lkst_mutex);
	kfree(line);
	argv_free((char **)argv);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dynevent_command);

/**
 * lkst_dynevent_remove_all - unbind every dynamic event, or none
 *
 * What opening dynamic_events with O_TRUNC does, as kprobe_events does:
 * if a maskset names one of the events, nothing is unbound, and
 * error_log names the event.
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
		ev = lkst_dyn[i];
		if (!ev)
			continue;
		if (__lkst_masksets_use_event(ev->desc.id)) {
			lkst_log_err(LKST_DYN_LOC, ev->name, LKST_ERR_IN_USE, 0);
			return -EBUSY;
		}
		clear |= __lkst_event_recorded(ev->desc.id);
	}
	for (i = 0; i < LKST_EV_DYN_MAX; i++)
		if (lkst_dyn[i])
			__lkst_event_remove(lkst_dyn[i]->desc.id);
	/* One clear of the buffers for all the events that recorded */
	if (clear)
		__lkst_buffers_clear();
	for (i = 0; i < LKST_EV_DYN_MAX; i++)
		if (lkst_dyn[i])
			__lkst_dyn_release(lkst_dyn[i]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dynevent_remove_all);

/* dynamic_events: the bindings, in ID order, as they can be written */
void lkst_dynevents_print(struct seq_buf *s)
{
	struct lkst_dynevent *ev;
	unsigned int i;

	lockdep_assert_held(&lkst_mutex);
	for (i = 0; i < LKST_EV_DYN_MAX; i++) {
		ev = lkst_dyn[i];
		if (ev)
			seq_buf_printf(s, "%s %s\n", ev->name, ev->hook);
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
	 * As kprobe_events: "> dynamic_events" unbinds every event, or none
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
