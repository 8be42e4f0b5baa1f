// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench_waker - sleep 10 ms in a loop, as cyclictest's main thread does while
 * its measuring threads run (usleep(10000) between status checks). Run beside
 * rtmeasure, it gives both tools the same background wake-ups, for the matched
 * comparison in scripts/bench/cyclic-vs-cyclictest. Stops on SIGTERM.
 */
#include <unistd.h>

int main(void)
{
	for (;;)
		usleep(10000);
}
