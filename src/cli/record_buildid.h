/* SPDX-License-Identifier: MIT */
/* The build-ids of the files `structlint record` saw mapped
 * (record_buildid.c). */
#ifndef SLT_CLI_RECORD_BUILDID_H
#define SLT_CLI_RECORD_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "samples/perf_data.h"

struct rec_dsos {
	char **names;   /* distinct executable files mapped, in order seen */
	size_t n;
	bool oom;       /* a name could not be kept: its build-id is left out */
};

/* Keep the file name of a PERF_RECORD_MMAP/MMAP2 record (others ignored). */
void rec_dsos_note(struct rec_dsos *d, const uint8_t *rec, size_t size);
/* Add each kept file's build-id (and with kernel the running kernel's)
 * to w's HEADER_BUILD_ID section.  0 or SLT_ENOMEM. */
int rec_dsos_write(struct rec_dsos *d, struct slt_pdw *w, bool kernel);
void rec_dsos_free(struct rec_dsos *d);

#endif
