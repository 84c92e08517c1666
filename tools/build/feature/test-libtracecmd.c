// SPDX-License-Identifier: GPL-2.0
#include <trace-cmd.h>

int main(void)
{
	struct tracecmd_input *handle = tracecmd_open("trace.dat", 0);

	tracecmd_close(handle);
	return 0;
}
