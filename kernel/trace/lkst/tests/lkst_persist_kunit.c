// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the persistent buffer's checks: which headers left by
 * a previous boot are trusted, and the reason given for the others.
 */
#include <kunit/test.h>
#include <linux/seq_buf.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "../lkst_internal.h"

static struct lkst_persist_hdr *lkst_test_hdr(struct kunit *test)
{
	struct lkst_persist_hdr *hdr;

	hdr = kunit_kzalloc(test, sizeof(*hdr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hdr);
	lkst_persist_hdr_init(hdr, SZ_4M, 7);
	return hdr;
}

static void lkst_persist_hdr_fields(struct kunit *test)
{
	struct lkst_persist_hdr *hdr = lkst_test_hdr(test);

	KUNIT_EXPECT_EQ(test, hdr->magic, LKST_PERSIST_MAGIC);
	KUNIT_EXPECT_EQ(test, hdr->version, LKST_PERSIST_VERSION);
	KUNIT_EXPECT_EQ(test, hdr->hdr_size, sizeof(*hdr));
	KUNIT_EXPECT_EQ(test, hdr->nr_cpus, nr_cpu_ids);
	KUNIT_EXPECT_EQ(test, hdr->range_size, SZ_4M);
	KUNIT_EXPECT_EQ(test, hdr->boot, 7);
	KUNIT_EXPECT_EQ(test, hdr->ended, 0);
	KUNIT_EXPECT_STREQ(test, hdr->release, init_utsname()->release);
	KUNIT_EXPECT_STREQ(test, hdr->kversion, init_utsname()->version);
}

static void lkst_persist_check_valid(struct kunit *test)
{
	struct lkst_persist_hdr *hdr = lkst_test_hdr(test);
	char why[LKST_PERSIST_REASON_MAX] = "";

	KUNIT_EXPECT_TRUE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	KUNIT_EXPECT_STREQ(test, why, "");
	hdr->ended = LKST_PERSIST_ENDED_PANIC;
	KUNIT_EXPECT_TRUE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
}

static void lkst_persist_check_refused(struct kunit *test)
{
	struct lkst_persist_hdr *hdr = lkst_test_hdr(test);
	char why[LKST_PERSIST_REASON_MAX], want[LKST_PERSIST_REASON_MAX];

	hdr->magic = 0;
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	KUNIT_EXPECT_STREQ(test, why,
			   "no LKST records in the reserved memory (first boot, or it was cleared)");

	hdr = lkst_test_hdr(test);
	hdr->version = LKST_PERSIST_VERSION + 1;
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	snprintf(want, sizeof(want),
		 "header version %u (%zu bytes), this kernel reads version %u (%zu bytes)",
		 LKST_PERSIST_VERSION + 1, sizeof(*hdr), LKST_PERSIST_VERSION,
		 sizeof(*hdr));
	KUNIT_EXPECT_STREQ(test, why, want);

	hdr = lkst_test_hdr(test);
	strscpy(hdr->release, "5.10.0-test");
	strscpy(hdr->kversion, "#1 SMP");
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	KUNIT_EXPECT_STREQ(test, why, "recorded by another kernel: 5.10.0-test #1 SMP");

	/* Same release, another build */
	hdr = lkst_test_hdr(test);
	strscpy(hdr->kversion, "#2 SMP PREEMPT_DYNAMIC");
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	snprintf(want, sizeof(want), "recorded by another kernel: %s #2 SMP PREEMPT_DYNAMIC",
		 init_utsname()->release);
	KUNIT_EXPECT_STREQ(test, why, want);

	hdr = lkst_test_hdr(test);
	hdr->nr_cpus = nr_cpu_ids + 1;
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	snprintf(want, sizeof(want), "recorded with %u CPUs, this boot has %u",
		 nr_cpu_ids + 1, nr_cpu_ids);
	KUNIT_EXPECT_STREQ(test, why, want);

	hdr = lkst_test_hdr(test);
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_8M, why, sizeof(why)));
	KUNIT_EXPECT_STREQ(test, why,
			   "recorded in 4194304 bytes of reserved memory, this boot has 8388608");

	/* A header of the two halves' layout, as 64-bit kernels wrote it */
	hdr = lkst_test_hdr(test);
	hdr->version = 1;
	hdr->hdr_size = 192;
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	snprintf(want, sizeof(want),
		 "header version 1 (192 bytes), this kernel reads version 2 (%zu bytes)",
		 sizeof(*hdr));
	KUNIT_EXPECT_STREQ(test, why, want);
}

/* A release string without its NUL is compared, not overrun. */
static void lkst_persist_check_unterminated(struct kunit *test)
{
	struct lkst_persist_hdr *hdr = lkst_test_hdr(test);
	char why[LKST_PERSIST_REASON_MAX];

	memset(hdr->release, 'x', sizeof(hdr->release));
	memset(hdr->kversion, 'y', sizeof(hdr->kversion));
	KUNIT_EXPECT_FALSE(test, lkst_persist_check(hdr, SZ_4M, why, sizeof(why)));
	KUNIT_EXPECT_EQ(test, strncmp(why, "recorded by another kernel: xxx", 31), 0);
	KUNIT_EXPECT_LT(test, strlen(why), sizeof(why));
}

/* The KUnit kernel boots without lkst.persist= */
static void lkst_persist_info_not_configured(struct kunit *test)
{
	char *text = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, text);
	seq_buf_init(&s, text, PAGE_SIZE);
	lkst_persist_info_print(&s);
	KUNIT_EXPECT_STREQ(test, seq_buf_str(&s),
			   "status: empty\n"
			   "reason: no lkst.persist= on the command line\n"
			   "persist: none\n"
			   "recording: this boot records into ordinary memory\n");
	KUNIT_EXPECT_EQ(test, lkst_buffer_default()->tr->range_addr_start, 0);
}

/* A boot is named by its sequence number and its time, in UTC */
static void lkst_persist_boot_lines(struct kunit *test)
{
	struct lkst_persist_hdr *hdr = lkst_test_hdr(test);
	char *text = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct seq_buf s;

	KUNIT_ASSERT_NOT_NULL(test, text);
	seq_buf_init(&s, text, PAGE_SIZE);
	hdr->boot_time = 1700000000;
	hdr->nonce = 0x0123456789abcdefULL;
	lkst_persist_boot_print(&s, "this_boot", hdr, true);
	hdr->boot = 12345678901ULL;
	hdr->boot_time = 0;
	hdr->nonce = 0xf;
	lkst_persist_boot_print(&s, "boot", hdr, false);
	KUNIT_EXPECT_STREQ(test, seq_buf_str(&s),
			   "this_boot: 7\n"
			   "this_boot_time: 2023-11-14 22:13:20 UTC\n"
			   "this_boot_nonce: 0123456789abcdef\n"
			   "boot: 12345678901\n"
			   "boot_time: 1970-01-01 00:00:00 UTC\n");
}

static struct kunit_case lkst_persist_test_cases[] = {
	KUNIT_CASE(lkst_persist_hdr_fields),
	KUNIT_CASE(lkst_persist_check_valid),
	KUNIT_CASE(lkst_persist_check_refused),
	KUNIT_CASE(lkst_persist_check_unterminated),
	KUNIT_CASE(lkst_persist_info_not_configured),
	KUNIT_CASE(lkst_persist_boot_lines),
	{}
};

static struct kunit_suite lkst_persist_test_suite = {
	.name = "lkst_persist",
	.test_cases = lkst_persist_test_cases,
};

kunit_test_suite(lkst_persist_test_suite);

MODULE_DESCRIPTION("KUnit tests for the LKST persistent buffer");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
