// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for LKST's description in VMCOREINFO: the descriptor that
 * 'lkst extract' reads from a vmcore follows the buffers, and VMCOREINFO
 * has the lines that lead to it and into the ring buffer.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/ring_buffer.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/vmcore_info.h>

#include "../lkst_internal.h"
#include "lkst_kunit.h"

static void lkst_vmcore_header(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lkst_vmcore.magic, LKST_VMCORE_MAGIC);
	KUNIT_EXPECT_EQ(test, lkst_vmcore.version, LKST_VMCORE_VERSION);
	KUNIT_EXPECT_EQ(test, lkst_vmcore.size, sizeof(struct lkst_vmcore));
	KUNIT_EXPECT_EQ(test, lkst_vmcore.record_size, sizeof(struct lkst_record));
	KUNIT_EXPECT_EQ(test, lkst_vmcore.max_buffers, 1 + LKST_MAX_USER_BUFFERS);
	KUNIT_EXPECT_EQ(test, lkst_vmcore.nr_cpus, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, lkst_vmcore.page_offset, (u64)PAGE_OFFSET);
	/* The tool's copy of the layout: buf[] at 88, 40 bytes an entry */
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_vmcore, buf), 88);
	KUNIT_EXPECT_EQ(test, sizeof(lkst_vmcore.buf[0]), 40);
}

static void lkst_vmcore_default_first(struct kunit *test)
{
	KUNIT_ASSERT_GE(test, lkst_vmcore.nr_buffers, 1);
	KUNIT_EXPECT_STREQ(test, lkst_vmcore.buf[0].name, "default");
	KUNIT_EXPECT_EQ(test, lkst_vmcore.buf[0].rb,
			(u64)(unsigned long)lkst_buffer_rb(lkst_buffer_default()));
}

static void lkst_vmcore_follows_buffers(struct kunit *test)
{
	u32 n = lkst_vmcore.nr_buffers;
	struct lkst_buffer *buf;
	int ret;

	/* through the control plane, which keeps the description */
	scoped_guard(mutex, &lkst_mutex) {
		ret = __lkst_user_buffer_create("kunit_vmcore");
		buf = __lkst_buffer_lookup("kunit_vmcore");
	}
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, lkst_vmcore.nr_buffers, n + 1);
	KUNIT_EXPECT_STREQ(test, lkst_vmcore.buf[n].name, "kunit_vmcore");
	KUNIT_EXPECT_EQ(test, lkst_vmcore.buf[n].rb,
			(u64)(unsigned long)lkst_buffer_rb(buf));
	scoped_guard(mutex, &lkst_mutex)
		KUNIT_EXPECT_EQ(test, __lkst_user_buffer_remove(buf), 0);
	KUNIT_EXPECT_EQ(test, lkst_vmcore.nr_buffers, n);
	KUNIT_EXPECT_STREQ(test, lkst_vmcore.buf[0].name, "default");
}

/* The layout text must describe exactly the struct the kernel writes. */
static void lkst_format_matches_layout(struct kunit *test)
{
	static const char * const fields[] = {
		"\tfield:u16 type;\toffset:0;\tsize:2;\tsigned:0;\n",
		"\tfield:u8 flags;\toffset:2;\tsize:1;\tsigned:0;\n",
		"\tfield:u8 preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n",
		"\tfield:u32 pid;\toffset:4;\tsize:4;\tsigned:0;\n",
		"\tfield:u16 event;\toffset:8;\tsize:2;\tsigned:0;\n",
		"\tfield:u8 handler;\toffset:10;\tsize:1;\tsigned:0;\n",
		"\tfield:u64 arg[4];\toffset:16;\tsize:32;\tsigned:0;\n",
	};
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct seq_buf s;
	const char *text;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	seq_buf_init(&s, buf, PAGE_SIZE);
	lkst_format_print(&s);
	KUNIT_ASSERT_FALSE(test, seq_buf_has_overflowed(&s));
	text = seq_buf_str(&s);
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, fields[i]),
					  "missing %s", fields[i]);
}

static void lkst_vmcore_texts(struct kunit *test)
{
	char *want = kunit_kzalloc(test, LKST_VMCORE_TEXT_MAX, GFP_KERNEL);
	const char *text;
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, want);
	seq_buf_init(&s, want, LKST_VMCORE_TEXT_MAX);
	lkst_format_print(&s);
	text = (const char *)(unsigned long)lkst_vmcore.text[LKST_VMCORE_FORMAT];
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text, seq_buf_str(&s));
	KUNIT_EXPECT_EQ(test, lkst_vmcore.text_len[LKST_VMCORE_FORMAT],
			seq_buf_used(&s));

	seq_buf_init(&s, want, LKST_VMCORE_TEXT_MAX);
	lkst_events_print(&s);
	text = (const char *)(unsigned long)lkst_vmcore.text[LKST_VMCORE_EVENTS];
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_STREQ(test, text, seq_buf_str(&s));

	text = (const char *)(unsigned long)lkst_vmcore.text[LKST_VMCORE_HEADER_PAGE];
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "field: local_t commit;"));
	text = (const char *)(unsigned long)lkst_vmcore.text[LKST_VMCORE_HEADER_EVENT];
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "type_len    :    5 bits"));
}

/* A text that does not fit is refused whole, never cut */
static void lkst_vmcore_text_whole_or_none(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, LKST_VMCORE_TEXT_MAX, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, lkst_vmcore_print_text(buf, 64, lkst_format_print),
			-E2BIG);
	len = lkst_vmcore_print_text(buf, LKST_VMCORE_TEXT_MAX, lkst_format_print);
	KUNIT_EXPECT_GT(test, len, 64);
	KUNIT_EXPECT_EQ(test, len, strlen(buf));
	KUNIT_EXPECT_EQ(test, len, lkst_vmcore.text_len[LKST_VMCORE_FORMAT]);
	/* exactly its length and the NUL fit; one byte less does not */
	KUNIT_EXPECT_EQ(test, lkst_vmcore_print_text(buf, len + 1, lkst_format_print),
			len);
	KUNIT_EXPECT_EQ(test, lkst_vmcore_print_text(buf, len, lkst_format_print),
			-E2BIG);
}

/* vmcoreinfo_data is not exported: built-in tests only (kunit.py) */
static void lkst_vmcore_info_lines(struct kunit *test)
{
#if IS_BUILTIN(CONFIG_LKST_KUNIT_TEST)
	const char *info = (const char *)vmcoreinfo_data;
	char line[64];

	KUNIT_ASSERT_NOT_NULL(test, info);
	snprintf(line, sizeof(line), "SYMBOL(lkst_vmcore)=%lx\n",
		 (unsigned long)&lkst_vmcore);
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, line));
	snprintf(line, sizeof(line), "SIZE(lkst_vmcore)=%zu\n",
		 sizeof(struct lkst_vmcore));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, line));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, "NUMBER(LKST_VMCORE_VERSION)=1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, "OFFSET(trace_buffer.buffers)="));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, "OFFSET(buffer_page.page)="));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, "NUMBER(RB_PAGE_HEAD)=1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(info, "NUMBER(RB_FLAG_MASK)=3\n"));
#else
	kunit_skip(test, "vmcoreinfo_data is only reachable from built-in tests");
#endif
}

static struct kunit_case lkst_vmcore_test_cases[] = {
	KUNIT_CASE(lkst_format_matches_layout),
	KUNIT_CASE(lkst_vmcore_header),
	KUNIT_CASE(lkst_vmcore_default_first),
	KUNIT_CASE(lkst_vmcore_follows_buffers),
	KUNIT_CASE(lkst_vmcore_texts),
	KUNIT_CASE(lkst_vmcore_text_whole_or_none),
	KUNIT_CASE(lkst_vmcore_info_lines),
	{}
};

static struct kunit_suite lkst_vmcore_test_suite = {
	.name = "lkst_vmcore",
	.test_cases = lkst_vmcore_test_cases,
};

kunit_test_suite(lkst_vmcore_test_suite);

MODULE_DESCRIPTION("KUnit tests for LKST's description in VMCOREINFO");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
