/* SPDX-License-Identifier: MIT */
/*
 * The build-ids `structlint record` writes into its perf.data (the
 * HEADER_BUILD_ID feature, as perf record does for every binary with
 * samples): each executable file the recorded process mapped (its MMAP
 * and MMAP2 records) with the GNU build-id note of its ELF, and with -a
 * the running kernel's from /sys/kernel/notes as "[kernel.kallsyms]".
 * The readers refuse a report against a binary whose build-id differs
 * (src/weight), which needs these.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/record_buildid.h"
#include "load/elf.h"
#include "structlint/error.h"

/* MMAP: filename at 40; MMAP2: at 72 (maj, min, ino, ino_generation or
 * the build-id, prot, flags before it). */
void rec_dsos_note(struct rec_dsos *d, const uint8_t *rec, size_t size)
{
	struct perf_event_header h;
	if (size < sizeof(h))
		return;
	memcpy(&h, rec, sizeof(h));
	size_t at = h.type == PERF_RECORD_MMAP ? 40 : h.type == PERF_RECORD_MMAP2 ? 72 : 0;
	if (!at || size <= at || rec[at] != '/' || d->oom)
		return;
	size_t len = strnlen((const char *)rec + at, size - at);
	if (len == size - at)
		return;   /* not NUL-terminated: corrupt */
	const char *name = (const char *)rec + at;
	for (size_t i = 0; i < d->n; i++)   /* a process maps a few files */
		if (!strcmp(d->names[i], name))
			return;
	char **v = realloc(d->names, (d->n + 1) * sizeof(*v));
	char *copy = strdup(name);
	if (v)
		d->names = v;
	if (!v || !copy) {
		free(copy);
		d->oom = true;
		return;
	}
	d->names[d->n++] = copy;
}

static int kernel_build_id(struct slt_pdw *w)
{
	FILE *f = fopen("/sys/kernel/notes", "rb");
	if (!f)
		return 0;
	uint8_t buf[4096];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* the running kernel's notes: this machine's byte order */
	const uint8_t *id;
	size_t len;
	const uint16_t one = 1;
	if (slt_elf_notes_build_id(buf, n, *(const uint8_t *)&one == 1, &id, &len) || len > 20)
		return 0;
	return slt_pdw_add_build_id(w, -1, PERF_RECORD_MISC_KERNEL, id, len,
				    "[kernel.kallsyms]");
}

int rec_dsos_write(struct rec_dsos *d, struct slt_pdw *w, bool kernel)
{
	int rc = kernel ? kernel_build_id(w) : 0;
	for (size_t i = 0; !rc && i < d->n; i++) {
		struct slt_elf *e = NULL;
		struct slt_error err;
		const uint8_t *id;
		size_t len = 0;
		slt_error_clear(&err);
		if (slt_elf_open(d->names[i], &e, &err))
			continue;   /* gone, or no ELF: no build-id, as perf */
		if (!slt_elf_build_id(e, &id, &len) && len && len <= 20)
			rc = slt_pdw_add_build_id(w, -1, PERF_RECORD_MISC_USER, id, len,
						  d->names[i]);
		slt_elf_close(e);
	}
	return rc;
}

void rec_dsos_free(struct rec_dsos *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	memset(d, 0, sizeof(*d));
}
