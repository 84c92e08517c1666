/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the LKST KUnit suites.
 */
#ifndef _LKST_KUNIT_H
#define _LKST_KUNIT_H

#include <kunit/test.h>
#include <linux/ring_buffer.h>

#include "../lkst_internal.h"

static inline void lkst_test_buffer_remove(void *data)
{
	guard(mutex)(&lkst_mutex);
	__lkst_buffer_remove(data);
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

#endif /* _LKST_KUNIT_H */
