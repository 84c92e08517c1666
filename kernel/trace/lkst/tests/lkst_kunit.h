/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the LKST KUnit suites.
 */
#ifndef _LKST_KUNIT_H
#define _LKST_KUNIT_H

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>

#include "../lkst_internal.h"

/* As the control plane removes one: out of the vmcore's description too */
static inline void lkst_test_buffer_remove(void *data)
{
	guard(mutex)(&lkst_mutex);
	__lkst_user_buffer_remove(data);
}

/* A smallest (8 KiB per CPU) buffer that is removed when the test ends. */
static inline struct lkst_buffer *lkst_test_buffer(struct kunit *test,
						   const char *name)
{
	struct lkst_buffer *buf;

	scoped_guard(mutex, &lkst_mutex)
		buf = __lkst_buffer_create(name, LKST_BUF_MIN_KB);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, lkst_test_buffer_remove, buf));
	return buf;
}

/* Consume the next record of @buf, from the first CPU that has one. */
static inline bool lkst_test_consume(struct lkst_buffer *buf,
				     struct lkst_record *out)
{
	struct ring_buffer_event *ev;
	int cpu;

	for_each_possible_cpu(cpu) {
		ev = ring_buffer_consume(lkst_buffer_rb(buf), cpu, NULL, NULL);
		if (ev) {
			memcpy(out, ring_buffer_event_data(ev), sizeof(*out));
			return true;
		}
	}
	return false;
}

/* Write @text to maskset @ms, as a write of masksets/NAME does. */
static inline int lkst_test_maskset_write(struct lkst_maskset *ms,
					  const char *text)
{
	char *s = kstrdup(text, GFP_KERNEL);
	int ret;

	if (!s)
		return -ENOMEM;
	scoped_guard(mutex, &lkst_mutex)
		ret = __lkst_maskset_write(ms, s);
	kfree(s);
	return ret;
}

/*
 * Built in, THIS_MODULE is NULL and there is no reference to count; as a
 * module with unloading, what holds the test's module shows.
 */
#define LKST_TEST_COUNTS_REFS \
	(IS_MODULE(CONFIG_LKST_KUNIT_TEST) && IS_ENABLED(CONFIG_MODULE_UNLOAD))

static inline int lkst_test_modref(void)
{
#if LKST_TEST_COUNTS_REFS
	return module_refcount(THIS_MODULE);
#else
	return 0;
#endif
}

#endif /* _LKST_KUNIT_H */
