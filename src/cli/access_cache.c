/* SPDX-License-Identifier: MIT */
/*
 * The whole-binary access map for the commands (every type: the static
 * classes read the sites of embedded members' own types): built once per
 * binary and kept in the cache (include/structlint/cache.h, kind
 * SLT_ACCESS_CACHE_KIND, keyed by the binary's build-id and versioned by
 * the payload format and a hash of the analysing code: a binary without a
 * build-id is analysed every time; a query reads the head and the blocks
 * of the types it names, persist.c), with progress on stderr when the build has
 * run over a second and stderr is a terminal.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "access_hash.h"
#include "cli/static_classes.h"
#include "load/elf.h"
#include "structlint/cache.h"

struct progress {
	const char *file;
	double start;
	bool shown;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show(void *ctx, size_t done, size_t total)
{
	struct progress *p = ctx;
	if (now() - p->start < 1.0)
		return;
	fprintf(stderr, "\rstructlint: access map of %s: %zu of %zu functions...",
		p->file, done, total);
	fflush(stderr);
	p->shown = true;
}

/* The build-id of file into id (up to SLT_CACHE_MAX_ID bytes): its
 * length, 0 when it has none or cannot be read (then nothing is cached). */
static size_t build_id(const char *file, uint8_t *id)
{
	struct slt_elf *e = NULL;
	struct slt_error err;
	const uint8_t *p;
	size_t n = 0;
	slt_error_clear(&err);
	if (slt_elf_open(file, &e, &err))
		return 0;
	if (!slt_elf_build_id(e, &p, &n) && n && n <= SLT_CACHE_MAX_ID)
		memcpy(id, p, n);
	else
		n = 0;
	slt_elf_close(e);
	return n;
}

static int file_read(void *ctx, uint64_t off, void *buf, size_t n)
{
	return slt_cache_pread(ctx, off, buf, n);
}

/* The map of the types from the cache file for k: 0 and *out, else
 * nonzero (none, or unusable). */
static int cached(const struct slt_cache_key *k, const char *file,
		  const char *const *types, size_t n_types,
		  struct slt_access_map **out)
{
	struct slt_cache_file *f = NULL;
	struct slt_error e2;
	slt_error_clear(&e2);
	if (slt_cache_open(NULL, k, &f))
		return SLT_ENOTFOUND;
	struct slt_access_reader r = { .read = file_read, .ctx = f };
	r.head = slt_cache_head(f, &r.head_size, &r.size);
	int rc = slt_access_load_types(&r, types, n_types, file, out, &e2);
	slt_cache_close(f);
	return rc;
}

/* One warning line for unreadable location lists: the section, the
 * lowest list offset, how many functions and where their accesses go. */
static void warn_bad_loc(const char *file, const struct slt_access_map *m)
{
	if (!m->n_bad_loc_funcs)
		return;
	char off[40] = "an unknown offset";
	if (m->bad_loc_off != UINT64_MAX)
		snprintf(off, sizeof(off), "offset 0x%" PRIx64, m->bad_loc_off);
	fprintf(stderr, "structlint: warning: %s: %s at %s: corrupt location list "
		"(%" PRIu64 " function%s with unreadable variable locations: their "
		"unresolved accesses are counted as \"corrupt-location\")\n", file,
		m->bad_loc_version == 4 ? ".debug_loc" : ".debug_loclists", off,
		m->n_bad_loc_funcs, m->n_bad_loc_funcs == 1 ? "" : "s");
}

int cli_access_map(const char *file, const char *const *types, size_t n_types,
		   bool no_cache, struct slt_access_map **out,
		   struct slt_error *err)
{
	/* the input checks first: a file without code (a debug file shares
	 * its binary's build-id) is refused, cached map or not */
	int rc = slt_access_check_file(file, err);
	if (rc)
		return rc;
	uint8_t id[SLT_CACHE_MAX_ID];
	size_t n_id = no_cache ? 0 : build_id(file, id);
	/* the payload version, and the code that derives the map */
	struct slt_cache_key k = { id, n_id, SLT_ACCESS_CACHE_KIND,
				   SLT_ACCESS_CACHE_VERSION ^ SLT_ACCESS_CODE_HASH };
	*out = NULL;
	if (n_id && !cached(&k, file, types, n_types, out)) {
		warn_bad_loc(file, *out);
		return 0; /* else none, or unusable: rebuild and replace it */
	}
	struct progress pg = { .file = file, .start = now() };
	struct slt_access_opts ao = { 0 };
	if (isatty(STDERR_FILENO)) {
		ao.progress = show;
		ao.progress_ctx = &pg;
	}
	rc = slt_access_build(file, &ao, out, err);
	if (pg.shown)
		fputs("\r\033[K", stderr);
	if (!rc)
		warn_bad_loc(file, *out);
	if (rc || !n_id)
		return rc;
	void *data = NULL;
	size_t size = 0;
	struct slt_error e3;
	slt_error_clear(&e3);
	/* a cache that cannot be written only costs a rebuild next time */
	if (!slt_access_save(*out, &data, &size, &e3))
		slt_cache_write_head(NULL, &k, data, size,
				     slt_access_head_size(data, size));
	free(data);
	return 0;
}

int cli_access_map_for(const char *file, const struct slt_layout *layout,
		       bool no_cache, struct slt_access_map **out,
		       struct slt_error *err)
{
	size_t n = 0;
	char **names = slt_access_type_names(layout->structs, layout->n_structs, &n);
	*out = NULL;
	if (!names)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	int rc = cli_access_map(file, (const char *const *)names, n, no_cache, out, err);
	slt_access_names_free(names, n);
	return rc;
}
