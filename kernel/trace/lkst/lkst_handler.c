// SPDX-License-Identifier: GPL-2.0
/*
 * LKST's registry of handlers.  DEFAULT (ID 1) and NOTHING (ID 255) are
 * the data path's (lkst_dispatch.c); modules add handlers with
 * lkst_register_handler(), and get IDs 2..254.  A maskset line that
 * names a handler pins its module.
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

static bool lkst_handler_builtin(const struct lkst_handler *h)
{
	return h == &lkst_handler_default || h == &lkst_handler_nothing;
}

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

/*
 * The registry's part of lkst_unregister_handler() (lkst_maskset.c, which
 * first takes @h out of the masksets that use it).
 */
void __lkst_handler_remove(struct lkst_handler *h)
{
	lockdep_assert_held(&lkst_mutex);
	list_del(&h->list);
	__clear_bit(h->id, lkst_handler_ids);
}

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
