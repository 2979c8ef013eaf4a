/* SPDX-License-Identifier: MIT */
/* read_perf_data FILE: count the samples slt_perf_data_read() delivers
 * (bench/samples.sh times this). */
#include <stdio.h>

#include "samples/perf_data.h"

static int count(void *ctx, const struct slt_sample *s)
{
	*(unsigned long long *)ctx += s->loads + s->stores;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n = 0;
	struct slt_error err;
	slt_error_clear(&err);
	if (argc != 2 || slt_perf_data_read(argv[1], count, &n, NULL, &err)) {
		char buf[2048];
		fprintf(stderr, "read_perf_data: %s\n", slt_error_format(&err, buf, sizeof(buf)));
		return 2;
	}
	printf("%llu\n", n);
	return 0;
}
