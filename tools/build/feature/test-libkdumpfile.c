// SPDX-License-Identifier: GPL-2.0
#include <libkdumpfile/kdumpfile.h>

int main(void)
{
	kdump_ctx_t *ctx = kdump_new();

	kdump_open_fd(ctx, 0);
	kdump_free(ctx);
	return 0;
}
