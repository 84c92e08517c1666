// SPDX-License-Identifier: GPL-2.0
/*
 * LKST handlers and the dispatch path.
 *
 * Every probe ends in __lkst_dispatch(), which looks the event up in the
 * current maskset table and calls the handler chosen there.  DEFAULT (ID 1)
 * records into the buffer of the maskset line and is called directly, not
 * through a pointer, because it is what nearly every event uses.  NOTHING
 * (ID 255) keeps the probe attached and returns at once; an event that a
 * table does not list has no probe at all.  Modules add handlers with
 * lkst_register_handler(); they get IDs 2..254.
 */
#define pr_fmt(fmt) "lkst: " fmt

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/string.h>

#include "lkst_internal.h"

static LIST_HEAD(lkst_handlers);
static DECLARE_BITMAP(lkst_handler_ids, LKST_HANDLER_NOTHING + 1);

static void lkst_default_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			    unsigned int event, pid_t pid, const u64 *args)
{
	lkst_record(buf, event, LKST_HANDLER_DEFAULT, pid, args);
}

struct lkst_handler lkst_handler_default = {
	.name	= "DEFAULT",
	.func	= lkst_default_fn,
	.id	= LKST_HANDLER_DEFAULT,
};
EXPORT_SYMBOL_IF_KUNIT(lkst_handler_default);

/* Never called: the dispatch path compares with it and returns. */
static void lkst_nothing_fn(struct lkst_handler *h, struct lkst_buffer *buf,
			    unsigned int event, pid_t pid, const u64 *args)
{
}

struct lkst_handler lkst_handler_nothing = {
	.name	= "NOTHING",
	.func	= lkst_nothing_fn,
	.id	= LKST_HANDLER_NOTHING,
};
EXPORT_SYMBOL_IF_KUNIT(lkst_handler_nothing);

static bool lkst_handler_builtin(const struct lkst_handler *h)
{
	return h == &lkst_handler_default || h == &lkst_handler_nothing;
}

/**
 * lkst_dispatch_table - run the handler @t chooses for @event
 * @t:		a published table
 * @event:	event ID, < LKST_NR_EVENTS
 * @pid:	pid to record
 * @args:	LKST_NR_ARGS arguments
 *
 * The out-of-line form of __lkst_dispatch_table(), for the KUnit tests.
 * Must be called with preemption disabled, as tracepoint probes are.
 */
void lkst_dispatch_table(const struct lkst_table *t, unsigned int event,
			 pid_t pid, const u64 *args)
{
	__lkst_dispatch_table(t, event, pid, args[0], args[1], args[2],
			      args[3]);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dispatch_table);

/*
 * Extended handlers get the arguments as an array.  Out of line, so that
 * the probes, which inline the DEFAULT and NOTHING cases, need no stack
 * frame for it.
 */
void lkst_call_handler(struct lkst_handler *h, struct lkst_buffer *buf,
		       unsigned int event, pid_t pid, u64 a0, u64 a1, u64 a2,
		       u64 a3)
{
	const u64 args[LKST_NR_ARGS] = { a0, a1, a2, a3 };

	h->func(h, buf, event, pid, args);
}

/* What every probe does (inlined there), as a function for the tests. */
void lkst_dispatch(unsigned int event, u64 a0, u64 a1, u64 a2, u64 a3)
{
	__lkst_dispatch(event, a0, a1, a2, a3);
}
EXPORT_SYMBOL_IF_KUNIT(lkst_dispatch);

struct lkst_handler *__lkst_handler_lookup(const char *name)
{
	struct lkst_handler *h;

	lockdep_assert_held(&lkst_mutex);
	if (!strcmp(name, lkst_handler_default.name))
		return &lkst_handler_default;
	if (!strcmp(name, lkst_handler_nothing.name))
		return &lkst_handler_nothing;
	list_for_each_entry(h, &lkst_handlers, list)
		if (!strcmp(h->name, name))
			return h;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(__lkst_handler_lookup);

/*
 * A table entry refers to @h: pin the owner module so that it cannot be
 * unloaded while a maskset might still call into it.
 */
int __lkst_handler_pin(struct lkst_handler *h)
{
	lockdep_assert_held(&lkst_mutex);
	if (lkst_handler_builtin(h))
		return 0;
	if (!try_module_get(h->owner))
		return -ENODEV;
	h->users++;
	return 0;
}

void __lkst_handler_unpin(struct lkst_handler *h)
{
	lockdep_assert_held(&lkst_mutex);
	if (lkst_handler_builtin(h))
		return;
	h->users--;
	module_put(h->owner);
}

/**
 * lkst_register_handler - make a handler available to masksets
 * @h: the handler; @h->name, @h->func and @h->owner must be set
 *
 * After this, lines of the form "EVENT NAME [BUFFER]" may use the
 * handler, and it is listed in available_handlers with the ID stored in
 * @h->id.  While a maskset refers to the handler, its module cannot be
 * removed.
 *
 * Context: process context; takes lkst_mutex.
 * Return: 0; -EINVAL for a bad name or no callback; -EEXIST if the name
 * is taken; -ENOSPC when all 253 handler IDs are in use.
 */
int lkst_register_handler(struct lkst_handler *h)
{
	unsigned int id;

	if (!h || !h->func || !h->name || !lkst_name_valid(h->name) ||
	    !strcmp(h->name, lkst_handler_nothing.name))
		return -EINVAL;

	guard(mutex)(&lkst_mutex);
	if (__lkst_handler_lookup(h->name))
		return -EEXIST;
	id = find_next_zero_bit(lkst_handler_ids, LKST_HANDLER_NOTHING,
				LKST_HANDLER_DEFAULT + 1);
	if (id >= LKST_HANDLER_NOTHING)
		return -ENOSPC;
	__set_bit(id, lkst_handler_ids);
	h->id = id;
	h->users = 0;
	list_add_tail(&h->list, &lkst_handlers);
	return 0;
}
EXPORT_SYMBOL_GPL(lkst_register_handler);

/**
 * lkst_unregister_handler - remove a handler registered with
 * lkst_register_handler()
 * @h: the handler
 *
 * The handler must not be used by any maskset: that is guaranteed when
 * this is called from the owner's module_exit(), because a used handler
 * pins its module.  If it is used anyway (a module unregistering early),
 * this warns and removes the handler from every maskset first, so the
 * call always succeeds and @h is not called any more when it returns.
 *
 * Context: process context; takes lkst_mutex; may sleep.
 */
void lkst_unregister_handler(struct lkst_handler *h)
{
	guard(mutex)(&lkst_mutex);
	if (WARN_ON(h->users))
		__lkst_maskset_drop_handler(h);
	list_del(&h->list);
	__clear_bit(h->id, lkst_handler_ids);
}
EXPORT_SYMBOL_GPL(lkst_unregister_handler);

/* available_handlers: "ID NAME" */
void lkst_handlers_print(struct seq_buf *s)
{
	struct lkst_handler *h;

	lockdep_assert_held(&lkst_mutex);
	seq_buf_printf(s, "%u %s\n", LKST_HANDLER_DEFAULT,
		       lkst_handler_default.name);
	list_for_each_entry(h, &lkst_handlers, list)
		seq_buf_printf(s, "%u %s\n", h->id, h->name);
	seq_buf_printf(s, "%u %s\n", LKST_HANDLER_NOTHING,
		       lkst_handler_nothing.name);
}
