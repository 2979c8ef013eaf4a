/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the perf.data reader: the input as a file-mode or
 * pipe-mode perf.data in memory.  An input that does not start with
 * PERFILE2 has its first byte pick what to prepend: 0: nothing, 1: a pipe header,
 * 2: a pipe header and a HEADER_ATTR with every sample_type bit.  Crashes,
 * leaks, out-of-bounds reads and hangs are bugs; SLT_E* is the answer to
 * garbage.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "samples/perf_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sink(void *ctx, const struct slt_sample *s)
{
	*(uint64_t *)ctx += s->addr ^ s->ip ^ s->data_src;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned mode = 0;
	if (size < 8 || memcmp(data, "PERFILE2", 8)) {
		mode = data[0] % 3;
		data++;
		size--;
	}
	size_t pre = mode == 0 ? 0 : mode == 1 ? 16 : 16 + 8 + sizeof(struct perf_event_attr);
	uint8_t *buf = malloc(pre + size + 1);
	if (!buf)
		return 0;
	if (mode) {
		memcpy(buf, "PERFILE2", 8);
		uint64_t hs = 16;
		memcpy(buf + 8, &hs, 8);
	}
	if (mode == 2) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.sample_type = (PERF_SAMPLE_MAX - 1) & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
		a.sample_regs_user = 0xf;
		a.sample_regs_intr = 0x3;
		struct perf_event_header h = { SLT_PERF_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + sizeof(a)) };
		memcpy(buf + 16, &h, 8);
		memcpy(buf + 24, &a, sizeof(a));
	}
	memcpy(buf + pre, data, size);
	uint64_t acc = 0;
	struct slt_samples_info info;
	struct slt_error err;
	slt_error_clear(&err);
	slt_perf_data_read_mem(buf, pre + size, "fuzz", sink, &acc, &info, &err);
	free(buf);
	return 0;
}
