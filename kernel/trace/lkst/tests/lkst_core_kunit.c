// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the LKST event table, names and the published record
 * format.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../lkst_internal.h"

struct lkst_name_case {
	const char	*name;
	bool		valid;
};

static const struct lkst_name_case lkst_name_cases[] = {
	{ "RALL", true },
	{ "my-set_2", true },
	{ "a", true },
	{ "0123456789012345678901234567890", true },	/* 31 */
	{ "01234567890123456789012345678901", false },	/* 32 */
	{ "", false },
	{ "a b", false },
	{ "a/b", false },
	{ "!a", false },
	{ "a\n", false },
};

/* Parameter descriptions go into KTAP lines: no control characters */
static void lkst_test_printable(char *desc)
{
	for (; *desc; desc++)
		if (!isprint(*desc))
			*desc = '.';
}

static void lkst_name_desc(const struct lkst_name_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->name);
	lkst_test_printable(desc);
}

KUNIT_ARRAY_PARAM(lkst_name, lkst_name_cases, lkst_name_desc);

static void lkst_name_validation(struct kunit *test)
{
	const struct lkst_name_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, lkst_name_valid(c->name), c->valid);
}

/* IDs are ABI: spot-check that nobody renumbered them. */
static void lkst_event_ids_stable(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, LKST_EV_PROCESS_CONTEXTSWITCH, 1);
	KUNIT_EXPECT_EQ(test, LKST_EV_INT_HARDWARE_ENTRY, 16);
	KUNIT_EXPECT_EQ(test, LKST_EV_SYSCALL_ENTRY, 48);
	KUNIT_EXPECT_EQ(test, LKST_EV_MEM_PAGE_ALLOC, 64);
	KUNIT_EXPECT_EQ(test, LKST_EV_O_PANIC, 241);
	KUNIT_EXPECT_EQ(test, LKST_HANDLER_DEFAULT, 1);
	KUNIT_EXPECT_EQ(test, LKST_HANDLER_NOTHING, 255);
}

static void lkst_event_table_consistent(struct kunit *test)
{
	const struct lkst_event_desc *d, *e;
	unsigned int n = 0;
	int i;

	for (d = lkst_event_next(NULL); d; d = lkst_event_next(d)) {
		n++;
		KUNIT_EXPECT_PTR_EQ(test, d, lkst_event_desc(d->id));
		KUNIT_EXPECT_PTR_EQ(test, d, lkst_event_lookup(d->name));
		KUNIT_EXPECT_TRUE(test, lkst_name_valid(d->name));
		KUNIT_EXPECT_EQ(test, strlen(d->argfmt), LKST_NR_ARGS);
		KUNIT_EXPECT_NOT_NULL(test, d->attach);
		KUNIT_EXPECT_NOT_NULL(test, d->detach);
		for (i = 0; i < LKST_NR_ARGS; i++)
			KUNIT_EXPECT_NOT_NULL(test, d->args[i]);
	}
	/* Events present everywhere, UML included */
	for (i = LKST_EV_PROCESS_CONTEXTSWITCH; i <= LKST_EV_PROCESS_MIGRATE; i++)
		KUNIT_EXPECT_NOT_NULL(test, lkst_event_desc(i));
	e = lkst_event_lookup("PROCESS_CONTEXTSWITCH");
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_STREQ(test, e->args[0], "prev");
	KUNIT_EXPECT_STREQ(test, e->args[1], "next");
	KUNIT_EXPECT_STREQ(test, e->args[2], "state");
	KUNIT_EXPECT_NULL(test, lkst_event_lookup("process_contextswitch"));
	KUNIT_EXPECT_NULL(test, lkst_event_desc(0));
	KUNIT_EXPECT_NULL(test, lkst_event_desc(LKST_NR_EVENTS));
	KUNIT_EXPECT_GE(test, n, 30);
}

static void lkst_record_layout(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sizeof(struct lkst_record), 40);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, event), 0);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, handler), 2);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, flags), 3);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, pid), 4);
	KUNIT_EXPECT_EQ(test, offsetof(struct lkst_record, arg), 8);
}

/* The format file must describe exactly the struct the kernel writes. */
static void lkst_format_matches_layout(struct kunit *test)
{
	static const char * const fields[] = {
		"\tfield:u16 event;\toffset:0;\tsize:2;\tsigned:0;\n",
		"\tfield:u8 handler;\toffset:2;\tsize:1;\tsigned:0;\n",
		"\tfield:u8 flags;\toffset:3;\tsize:1;\tsigned:0;\n",
		"\tfield:u32 pid;\toffset:4;\tsize:4;\tsigned:0;\n",
		"\tfield:u64 arg[4];\toffset:8;\tsize:32;\tsigned:0;\n",
	};
	struct seq_file m = { .size = PAGE_SIZE };
	int i;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_ASSERT_EQ(test, lkst_format_show(&m, NULL), 0);
	KUNIT_ASSERT_LT(test, m.count, m.size);
	m.buf[m.count] = '\0';
	for (i = 0; i < ARRAY_SIZE(fields); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, fields[i]),
					  "missing %s", fields[i]);
}

static struct kunit_case lkst_core_test_cases[] = {
	KUNIT_CASE_PARAM(lkst_name_validation, lkst_name_gen_params),
	KUNIT_CASE(lkst_event_ids_stable),
	KUNIT_CASE(lkst_event_table_consistent),
	KUNIT_CASE(lkst_record_layout),
	KUNIT_CASE(lkst_format_matches_layout),
	{}
};

static struct kunit_suite lkst_core_test_suite = {
	.name = "lkst_core",
	.test_cases = lkst_core_test_cases,
};

kunit_test_suite(lkst_core_test_suite);

MODULE_DESCRIPTION("KUnit tests for the LKST event table and format");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
