// SPDX-License-Identifier: GPL-2.0
/*
 * LKST's events as ftrace events: every LKST event, fixed or dynamic, is
 * an event of the system "lkst" in events/ (of the top level and of every
 * instance), with a format file that names its fields and says how to
 * print it.  That is all a reader of ftrace's buffers needs: trace-cmd,
 * KernelShark, libtraceevent and ftrace's own trace file read LKST's
 * records as the events they are.
 *
 * The ID: line of the format is ftrace's type of the event, assigned at
 * registration like every dynamic event's (register_trace_event() gives
 * fixed numbers only below __TRACE_LAST_TYPE, and LKST's IDs 1..241 would
 * collide with ftrace's own types).  Records carry it as common_type; the
 * stable LKST event ID stays in the record as the field "event".
 *
 * The events have no enable, filter or trigger files
 * (TRACE_EVENT_FL_IGNORE_ENABLE, as ftrace's own events in events/ftrace
 * have): what records an LKST event, and where to, is the current
 * maskset's to say, not set_event's.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "../trace.h"
#include "lkst_internal.h"

/*
 * The fields after struct trace_entry: what every LKST record has, named
 * lkst_* as ftrace's own are common_* (no argument may take those names),
 * then the arguments.
 */
#define LKST_TEVENT_FIELDS	(4 + LKST_NR_ARGS + 1)
#define LKST_PRINT_FMT_MAX	512

struct lkst_tevent {
	struct trace_event_class	class;
	struct trace_event_call		call;
	const struct lkst_event_desc	*desc;
	char				*print_fmt;
	char				unused[LKST_NR_ARGS][12];
	char				text_type[12];	/* char[N] */
	struct trace_event_fields	fields[LKST_TEVENT_FIELDS];
};

/* Under event_mutex */
static struct lkst_tevent *lkst_tevents[LKST_NR_IDS];

static const char lkst_task_states[] = "RSDTtXZPI";

/* A text argument: up to @n arguments' bytes, to the first NUL */
static void lkst_print_text(struct seq_buf *s, const u64 *args, int n)
{
	const char *text = (const char *)args;
	int i;

	for (i = 0; i < n * 8 && text[i]; i++)
		seq_buf_putc(s, isprint(text[i]) ? text[i] : '.');
}

/**
 * lkst_record_print_args - print the arguments of a record
 * @s: where they go
 * @d: the record's event
 * @rec: the record
 *
 * As the trace file of an instance shows them, after the event's name:
 * " NAME=VALUE" for each argument the event names.  Addresses follow
 * the rules of ftrace's event output: code addresses are printed as
 * symbols (%ps), data pointers hashed (%p, raw with the no_hash_pointers
 * boot parameter); the raw files keep the values.
 */
void lkst_record_print_args(struct seq_buf *s, const struct lkst_event_desc *d,
			    const struct lkst_record *rec)
{
	int i;

	for (i = 0; i < LKST_NR_ARGS; i++) {
		u64 a = rec->arg[i];

		switch (d->argfmt[i]) {
		case 'd':
			seq_buf_printf(s, " %s=%lld", d->args[i], (s64)a);
			break;
		case 'u':
			seq_buf_printf(s, " %s=%llu", d->args[i], a);
			break;
		case 'x':
			seq_buf_printf(s, " %s=0x%llx", d->args[i], a);
			break;
		case 'p':
			seq_buf_printf(s, " %s=%ps", d->args[i],
				       (void *)(unsigned long)a);
			break;
		case 'P':
			seq_buf_printf(s, " %s=%p", d->args[i],
				       (void *)(unsigned long)a);
			break;
		case 'S':
			seq_buf_printf(s, " %s=%c", d->args[i],
				       a < sizeof(lkst_task_states) - 1 ?
				       lkst_task_states[a] : '?');
			break;
		case 's':
			seq_buf_printf(s, " %s=\"", d->args[i]);
			lkst_print_text(s, &rec->arg[i], LKST_NR_ARGS - i);
			seq_buf_putc(s, '"');
			i = LKST_NR_ARGS;
			break;
		}
	}
	if (rec->handler != LKST_HANDLER_DEFAULT)
		seq_buf_printf(s, " handler=%u", rec->handler);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_record_print_args);

/* instances/lkst/trace, trace_pipe and ftrace_dump() print with this */
static enum print_line_t lkst_tevent_trace(struct trace_iterator *iter,
					   int flags, struct trace_event *event)
{
	struct lkst_tevent *ev = container_of(event, struct lkst_tevent,
					      call.event);
	const struct lkst_record *rec = (const struct lkst_record *)iter->ent;

	if (iter->ent_size < sizeof(*rec)) {
		trace_seq_puts(&iter->seq, "<record too short>\n");
		return trace_handle_return(&iter->seq);
	}
	/*
	 * A record of the previous boot (instances/lkst_last_boot) has the
	 * type that boot gave its event: a dynamic event's may be another's
	 * now, as the IDs may be.  What is not this event's is printed as
	 * what it is, an ID and four values.
	 */
	if (rec->event != ev->desc->id ||
	    (rec->event >= LKST_EV_DYN_FIRST && iter->tr &&
	     (iter->tr->flags & TRACE_ARRAY_FL_LAST_BOOT))) {
		trace_seq_printf(&iter->seq,
				 "UNKNOWN: id=%u args=0x%llx,0x%llx,0x%llx,0x%llx\n",
				 rec->event, rec->arg[0], rec->arg[1],
				 rec->arg[2], rec->arg[3]);
		return trace_handle_return(&iter->seq);
	}
	trace_seq_printf(&iter->seq, "%s:", ev->desc->name);
	lkst_record_print_args(&iter->seq.seq, ev->desc, rec);
	trace_seq_putc(&iter->seq, '\n');
	return trace_handle_return(&iter->seq);
}

static struct trace_event_functions lkst_tevent_funcs = {
	.trace		= lkst_tevent_trace,
};

#if IS_ENABLED(CONFIG_LKST_KUNIT_TEST)
/* What the trace file prints after the context for a record of event @id */
enum print_line_t lkst_tevent_print(struct trace_iterator *iter,
				    unsigned int id)
{
	struct lkst_tevent *ev;

	guard(mutex)(&event_mutex);
	ev = id < LKST_NR_IDS ? lkst_tevents[id] : NULL;
	if (!ev)
		return TRACE_TYPE_UNHANDLED;
	return lkst_tevent_trace(iter, 0, &ev->call.event);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_tevent_print);
#endif

/* Nothing in ftrace enables an LKST event: masksets do. */
static int lkst_tevent_reg(struct trace_event_call *call,
			   enum trace_reg type, void *data)
{
	return -EOPNOTSUPP;
}

static void lkst_tevent_field(struct trace_event_fields *f, const char *type,
			      const char *name, int size, bool is_signed,
			      int filter_type, int len)
{
	struct trace_event_fields tmp = {
		.type		= type,
		.name		= name,
		.size		= size,
		.align		= min(size, 8),
		.is_signed	= is_signed,
		.filter_type	= filter_type,
		.len		= len,
	};

	/* Its members are const: it is a template, filled in once. */
	memcpy(f, &tmp, sizeof(tmp));
}

/* The fields, in the order and at the offsets of struct lkst_record */
static void lkst_tevent_fields(struct lkst_tevent *ev)
{
	const struct lkst_event_desc *d = ev->desc;
	struct trace_event_fields *f = ev->fields;
	int i;

	lkst_tevent_field(f++, "u16", "lkst_event", 2, false, FILTER_OTHER, 0);
	lkst_tevent_field(f++, "u8", "lkst_handler", 1, false, FILTER_OTHER, 0);
	lkst_tevent_field(f++, "u8", "lkst_reserved", 1, false, FILTER_OTHER, 0);
	lkst_tevent_field(f++, "u32", "lkst_pad", 4, false, FILTER_OTHER, 0);
	for (i = 0; i < LKST_NR_ARGS; i++) {
		char fmt = d->argfmt[i];

		if (fmt == 's') {
			int len = (LKST_NR_ARGS - i) * sizeof(u64);

			snprintf(ev->text_type, sizeof(ev->text_type),
				 "char[%d]", len);
			lkst_tevent_field(f++, ev->text_type, d->args[i], len,
					  false, FILTER_STATIC_STRING, len);
			/* the last field: it fills the record */
			break;
		}
		if (fmt == '-' || !fmt) {
			snprintf(ev->unused[i], sizeof(ev->unused[i]),
				 "__unused%d", i);
			lkst_tevent_field(f++, "u64", ev->unused[i], 8, false,
					  FILTER_OTHER, 0);
			continue;
		}
		lkst_tevent_field(f++, fmt == 'd' ? "s64" : "u64", d->args[i],
				  8, fmt == 'd', FILTER_OTHER, 0);
	}
	/* f is zeroed: the terminator */
}

/*
 * The print fmt, for libtraceevent: the argument formats of the trace file,
 * with %ps for a code address (trace.dat carries kallsyms), a task state
 * as a letter, and text as a string.
 */
static char *lkst_tevent_print_fmt(const struct lkst_event_desc *d)
{
	char *fmt, *args;
	struct seq_buf f, a;
	int i;

	fmt = kzalloc(LKST_PRINT_FMT_MAX, GFP_KERNEL);
	args = kzalloc(LKST_PRINT_FMT_MAX, GFP_KERNEL);
	if (!fmt || !args)
		goto err;
	seq_buf_init(&f, fmt, LKST_PRINT_FMT_MAX);
	seq_buf_init(&a, args, LKST_PRINT_FMT_MAX);
	seq_buf_putc(&f, '"');
	for (i = 0; i < LKST_NR_ARGS; i++) {
		const char *name = d->args[i];
		const char *sep = seq_buf_used(&f) > 1 ? " " : "";

		switch (d->argfmt[i]) {
		case 'd':
			seq_buf_printf(&f, "%s%s=%%lld", sep, name);
			seq_buf_printf(&a, ", REC->%s", name);
			break;
		case 'u':
			seq_buf_printf(&f, "%s%s=%%llu", sep, name);
			seq_buf_printf(&a, ", REC->%s", name);
			break;
		case 'x':
		case 'P':
			seq_buf_printf(&f, "%s%s=0x%%llx", sep, name);
			seq_buf_printf(&a, ", REC->%s", name);
			break;
		case 'p':
			seq_buf_printf(&f, "%s%s=%%ps", sep, name);
			seq_buf_printf(&a, ", (void *)REC->%s", name);
			break;
		case 'S':
			seq_buf_printf(&f, "%s%s=%%s", sep, name);
			seq_buf_printf(&a,
				       ", __print_symbolic(REC->%s, { 0, \"R\" }, { 1, \"S\" }, { 2, \"D\" }, { 3, \"T\" }, { 4, \"t\" }, { 5, \"X\" }, { 6, \"Z\" }, { 7, \"P\" }, { 8, \"I\" })",
				       name);
			break;
		case 's':
			seq_buf_printf(&f, "%s%s=\\\"%%s\\\"", sep, name);
			seq_buf_printf(&a, ", REC->%s", name);
			i = LKST_NR_ARGS;
			break;
		}
	}
	seq_buf_putc(&f, '"');
	seq_buf_puts(&f, args);
	if (seq_buf_has_overflowed(&f) || seq_buf_has_overflowed(&a))
		goto err;
	kfree(args);
	return fmt;
err:
	kfree(fmt);
	kfree(args);
	return NULL;
}

static const char * const lkst_tevent_own_fields[] = {
	"lkst_event", "lkst_handler", "lkst_reserved", "lkst_pad",
};

/**
 * lkst_tevent_arg_name_ok - may an argument have this name?
 * @name: the name
 *
 * Not one of the fields every LKST record has, nor one of ftrace's common
 * fields, nor what unused arguments are called.
 *
 * Return: true if it may.
 */
bool lkst_tevent_arg_name_ok(const char *name)
{
	return match_string(lkst_tevent_own_fields,
			    ARRAY_SIZE(lkst_tevent_own_fields), name) < 0 &&
	       !str_has_prefix(name, "common_") &&
	       !str_has_prefix(name, "__unused");
}

/* Is there an event lkst/NAME already, e.g. a kprobe event? */
static bool lkst_tevent_name_taken(const char *name)
{
	struct trace_event_call *call;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(call, &ftrace_events, list)
		if (call->class->system && !strcmp(call->class->system, "lkst") &&
		    !strcmp(trace_event_name(call), name))
			return true;
	return false;
}

/**
 * lkst_tevent_add - describe an LKST event in events/lkst
 * @d: the event; must stay valid until lkst_tevent_remove()
 *
 * Context: process context; takes event_mutex.
 * Return: 0, and lkst_event_type[@d->id] is the event's type; -EEXIST
 * (also for an event lkst/NAME of kprobe_events), -EINVAL for an argument
 * named after a record field, -ENOMEM, -ENODEV (no type left).
 */
int lkst_tevent_add(const struct lkst_event_desc *d)
{
	struct lkst_tevent *ev;
	int ret, i;

	if (WARN_ON_ONCE(d->id >= LKST_NR_IDS))
		return -EINVAL;
	for (i = 0; i < LKST_NR_ARGS; i++)
		if (d->argfmt[i] != '-' && !lkst_tevent_arg_name_ok(d->args[i]))
			return -EINVAL;
	ev = kzalloc_obj(*ev);
	if (!ev)
		return -ENOMEM;
	ev->desc = d;
	ev->print_fmt = lkst_tevent_print_fmt(d);
	if (!ev->print_fmt) {
		kfree(ev);
		return -ENOMEM;
	}
	lkst_tevent_fields(ev);
	INIT_LIST_HEAD(&ev->class.fields);
	ev->class.system = "lkst";
	ev->class.fields_array = ev->fields;
	ev->class.reg = lkst_tevent_reg;
	ev->call.class = &ev->class;
	ev->call.name = (char *)d->name;
	ev->call.print_fmt = ev->print_fmt;
	ev->call.event.funcs = &lkst_tevent_funcs;
	ev->call.flags = TRACE_EVENT_FL_IGNORE_ENABLE;
	if (d->id >= LKST_EV_DYN_FIRST)
		ev->call.flags |= TRACE_EVENT_FL_DYNAMIC;

	guard(mutex)(&event_mutex);
	if (lkst_tevents[d->id] || lkst_tevent_name_taken(d->name)) {
		ret = -EEXIST;
		goto err;
	}
	if (!register_trace_event(&ev->call.event)) {
		ret = -ENODEV;
		goto err;
	}
	ret = trace_add_event_call(&ev->call);
	if (ret) {
		unregister_trace_event(&ev->call.event);
		goto err;
	}
	lkst_tevents[d->id] = ev;
	WRITE_ONCE(lkst_event_type[d->id], ev->call.event.type);
	return 0;
err:
	kfree(ev->print_fmt);
	kfree(ev);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(lkst_tevent_add);

/**
 * lkst_tevent_remove - take an event out of events/lkst
 * @id: the event's LKST ID
 *
 * Records written afterwards carry type 0 until the ID is described
 * again.  Records already written keep the old type, which ftrace gives
 * to the next event it registers: the caller drops them first
 * (__lkst_buffers_clear()).  An open format file of the event does not
 * hold it: eventfs lets go of the event's files.
 *
 * Context: process context; takes event_mutex.
 */
void lkst_tevent_remove(unsigned int id)
{
	struct lkst_tevent *ev;

	guard(mutex)(&event_mutex);
	ev = id < LKST_NR_IDS ? lkst_tevents[id] : NULL;
	if (!ev)
		return;
	/* Only an enabled or perf-attached event is busy: LKST's never are. */
	if (WARN_ON_ONCE(trace_remove_event_call(&ev->call)))
		return;
	WRITE_ONCE(lkst_event_type[id], 0);
	lkst_tevents[id] = NULL;
	kfree(ev->print_fmt);
	kfree(ev);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_tevent_remove);

/**
 * lkst_tevents_init - describe the fixed events at boot
 *
 * Before modules and before events defined on the command line, so that
 * a kernel gives its fixed LKST events the same types on every boot.
 *
 * Return: 0 or the first error.
 */
int __init lkst_tevents_init(void)
{
	const struct lkst_event_desc *d;
	unsigned int id;
	int ret;

	/* The fixed ones: no dynamic event exists yet, nor lkst_mutex */
	for (id = 0; id < LKST_NR_EVENTS; id++) {
		d = lkst_event_desc(id);
		if (!d)
			continue;
		ret = lkst_tevent_add(d);
		if (ret) {
			pr_err("cannot describe event %s: %d\n", d->name, ret);
			return ret;
		}
	}
	return 0;
}
