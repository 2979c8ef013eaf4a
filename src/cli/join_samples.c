/* SPDX-License-Identifier: MIT */
/*
 * --samples for report, suggest and check: the samples file read once and
 * fed to one join per definition of the struct (cli_join_samples() in
 * analysis_args.h); a perf.data of IP samples is weighted by the static
 * access map (structlint/weight.h); standard input is spooled to a file
 * when it must be read twice.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/static_classes.h"
#include "cli/cli.h"
#include "join/join_int.h"
#include "load/elf.h"
#include "structlint/samples.h"
#include "samples/perf_data.h"
#include "structlint/weight.h"

/* Feed one sample to every join (one per definition). */
struct fan {
	struct slt_join **joins;
	size_t n;
};

static int fan_cb(void *ctx, const struct slt_sample *s)
{
	struct fan *f = ctx;
	for (size_t i = 0; i < f->n; i++) {
		int rc = slt_join_add(f->joins[i], s);
		if (rc)
			return rc;
	}
	return 0;
}

/* Typed samples that all name other types: the base is not the problem;
 * say which types they name. */
static int other_types_error(const struct slt_access_profile *p,
			     const char *name, const char *path,
			     struct slt_error *err)
{
	char types[300] = "";
	size_t h = 0;
	for (size_t k = 0; k < p->n_other_types && h < sizeof(types); k++) {
		int r = snprintf(types + h, sizeof(types) - h, "%s%s (%" PRIu64 ")",
				 k ? ", " : "", p->other_types[k].name, p->other_types[k].samples);
		if (r < 0)
			break;
		h += (size_t)r;
	}
	return slt_error_set(err, SLT_EUSAGE, path, -1,
			     "name one of the profiled types, or profile a workload that touches this one",
			     "none of the %" PRIu64 " samples is of %s: they name other types, most %s; none is %s",
			     p->samples, name, types, name);
}

/* Standard input copied into an unlinked-on-close temporary file, so a
 * perf.data on it can be read twice (the IP-sample weighting does): the
 * path in path (size bytes), removed by the caller.  0 or SLT_EIO. */
static int spool_stdin(char *path, size_t size, struct slt_error *err)
{
	const char *dir = getenv("TMPDIR");
	snprintf(path, size, "%s/structlint-stdin-XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	if (!out) {
		if (fd >= 0)
			close(fd);
		return slt_error_set(err, SLT_EIO, path, -1,
				     "set TMPDIR to a writable directory, or pass the samples as a file",
				     "cannot create a copy of standard input: %s", strerror(errno));
	}
	char buf[1 << 16];
	size_t n;
	bool bad = false;
	while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
		bad |= fwrite(buf, 1, n, out) != n;
	bad |= ferror(stdin) != 0;
	if (fclose(out) || bad) {
		int e = errno;
		unlink(path);
		return slt_error_set(err, SLT_EIO, "-", -1,
				     "pass the samples as a file",
				     "cannot copy standard input to %s: %s", path, strerror(e));
	}
	return 0;
}

/* Is the samples input a perf.data file (by --samples-format or its
 * magic)? */
static bool is_perf_data(const char *path, int sfmt)
{
	if (sfmt == SLT_SAMPLES_PERF_DATA)
		return true;
	if (sfmt != SLT_SAMPLES_AUTO)
		return false;
	unsigned char head[8];
	FILE *fp = fopen(path, "rb");
	bool yes = fp && fread(head, 1, sizeof(head), fp) == sizeof(head) &&
		   slt_perf_data_detect(head, sizeof(head));
	if (fp)
		fclose(fp);
	return yes;
}

_Static_assert(sizeof(((struct slt_access_profile *)0)->base_note) ==
	       sizeof(((struct slt_ipw_info *)0)->basis), "basis fits base_note");

struct ipw_ctx {
	const struct cli_analysis *c;
	const char *const *types;  /* the weighted types */
	size_t n_types;
};

/* The access map for the IP-sample estimate: the whole-binary pass,
 * from the build-id cache when it holds it (static_classes.h), with the
 * sites of the weighted types. */
static int ipw_map(void *ctx, struct slt_access_map **out, struct slt_error *err)
{
	const struct ipw_ctx *x = ctx;
	return cli_access_map(x->c->file, x->types, x->n_types, x->c->lopts.no_cache, out, err);
}

/* What to do when the input held no memory sample. */
static const char *no_samples_hint(const struct cli_analysis *c)
{
	if (!c->file && is_perf_data(c->samples, c->sfmt))
		return "for IP samples (cpu-clock, structlint record without memory events) give the binary as FILE: they are weighted by its static access sites; else record memory samples: perf c2c record, perf mem record";
	return "record memory samples: perf c2c record, perf mem record, or perf record -d";
}

/* Is FILE a position-independent program (ET_DYN): its data addresses
 * at run time are its link addresses plus a load bias only its mmaps
 * tell? */
static bool is_pie(const char *file)
{
	struct slt_elf *e;
	struct slt_error ignored;
	if (!file || slt_elf_open(file, &e, &ignored))
		return false;
	bool yes = slt_elf_type(e) == 3;   /* ET_DYN */
	slt_elf_close(e);
	return yes;
}

/* Text output of perf (perf script, perf mem report) carries no mmap
 * events: addresses of a PIE program cannot be relocated from it. */
static bool text_without_mmaps(const struct slt_samples_info *info)
{
	return info->format == SLT_SAMPLES_PERF_SCRIPT || info->format == SLT_SAMPLES_PERF_MEM;
}

/* Say on stderr what the weighting did. */
static void ipw_note(const struct cli_analysis *c, const struct slt_ipw_info *wi)
{
	if (wi->estimated)
		fprintf(stderr, "structlint: note: %s: no memory samples; member accesses %s\n",
			c->samples, wi->basis);
	if (wi->kernel && wi->ip_samples && !wi->kernel_mmap)
		fprintf(stderr, "structlint: warning: %s: no [kernel.kallsyms]_text mmap event with the kernel's run-time _text: kernel samples cannot be placed in %s (KASLR); record with perf record -a or structlint record -a\n",
			c->samples, c->file);
	else if (!wi->kernel && wi->ip_samples && !wi->mmaps)
		fprintf(stderr, "structlint: warning: %s: no mmap event of %s: its samples cannot be placed (is FILE the program that ran?)\n",
			c->samples, c->file);
	if (wi->mem_relocated)
		fprintf(stderr, "structlint: note: %s: %" PRIu64 " of %" PRIu64 " data addresses relocated into %s's link addresses (mmap events)\n",
			c->samples, wi->mem_relocated, wi->mem_samples, c->file);
}

/* Does path, inside a member of struct name shown folded, name a member
 * of it shown inline (*named)?  When not (misspelled: "q.lcok"), the
 * warning with did-you-mean; its samples stay on the folded member. */
static int folded_named(const struct cli_analysis *c, const char *name,
			const struct slt_access_profile *p, bool *named,
			struct slt_error *err)
{
	struct slt_load_opts lo = c->lopts;
	struct slt_layout *x = NULL;
	long m = -1;
	uint64_t off;
	lo.expand = true;
	int rc = slt_layout_load(c->file, &name, 1, &lo, &x, err);
	if (!rc && x->n_structs)
		slt_join_path_place(&x->structs[0], p->folded_path, &m, &off);
	*named = m >= 0;
	char *best = NULL;
	if (!rc && !*named && x->n_structs &&
	    slt_member_closest(&x->structs[0], p->folded_path, &best))
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && !*named)
		fprintf(stderr, "structlint: warning: %s: %s has no member '%s'%s%s%s; the %" PRIu64
			" samples by paths inside nested structs are counted on the nested struct "
			"holding them\n", c->samples, name, p->folded_path,
			best ? " (did you mean " : "", best ? best : "", best ? "?)" : "",
			p->folded_samples);
	free(best);
	slt_layout_free(x);
	return rc;
}

int cli_join_samples(const struct cli_analysis *c, const struct slt_layout *l,
		    struct slt_access_profile **profiles, bool first,
		    struct slt_error *err)
{
	struct slt_join *joins[l->n_structs];
	struct fan f = { joins, 0 };
	struct slt_samples_info info;
	int rc = 0;
	for (size_t i = 0; i < l->n_structs && !rc; i++)
		if (!(rc = slt_join_new(&l->structs[i], &c->jopts, &joins[i], err)))
			f.n++;
	struct slt_ipw_info wi;
	memset(&wi, 0, sizeof(wi));
	/* with FILE, standard input may be IP samples to weight: the
	 * weighting reads the perf.data twice, so it goes to a file first */
	char spool[512] = "";
	const char *samples = c->samples;
	if (!rc && c->file && !strcmp(samples, "-") && !(rc = spool_stdin(spool, sizeof(spool), err)))
		samples = spool;
	if (!rc && c->file && is_perf_data(samples, c->sfmt)) {
		/* relocated by the binary's mmaps; IP samples only: estimated
		 * from the static sites (structlint/weight.h) */
		const char *name = l->structs[0].name;
		struct ipw_ctx x = {c, &name, 1};
		struct slt_ipw_opts wo = {.binary = c->file, .types = &name, .n_types = 1,
					  .layouts = &l->structs[0],
					  .get_map = ipw_map, .get_map_ctx = &x};
		rc = slt_ipw_read(samples, &wo, fan_cb, &f, &info, &wi, err);
		if (!rc && first)
			ipw_note(c, &wi);
	} else if (!rc) {
		rc = slt_samples_read(samples, (enum slt_samples_format)c->sfmt,
				      fan_cb, &f, &info, err);
	}
	if (spool[0]) {
		unlink(spool);
		if (rc && !strcmp(err->file, spool))   /* name the input as given */
			snprintf(err->file, sizeof(err->file), "-");
	}
	if (rc && !err->code)      /* the join stopped the parse: memory */
		rc = slt_error_set(err, SLT_ENOMEM, c->samples, -1, NULL, "out of memory while joining samples");
	if (!first)
		;
	else if (!rc && info.nul_tail)
		fprintf(stderr, "structlint: warning: %s: the last %" PRIu64 " bytes are NUL bytes, "
			"not text: ignored (a zero-padded or truncated copy?)\n",
			c->samples, info.nul_tail);
	if (!rc && first && info.quoted_lines)
		fprintf(stderr, "structlint: note: %s: read as a mail quote: the quote prefix ('> ', "
			"'>> ') of %" PRIu64 " lines left out\n", c->samples, info.quoted_lines);
	if (!rc && first && info.c2c_bad_rows)
		fprintf(stderr, "structlint: warning: %s:%" PRIu64 ": %" PRIu64 " perf c2c Pareto "
			"row%s could not be read (a field is not the number its column holds; the "
			"first is on this line): %s samples are left out; fix or regenerate the "
			"report (perf c2c report --stdio)\n", c->samples, info.c2c_bad_line,
			info.c2c_bad_rows, info.c2c_bad_rows == 1 ? "" : "s",
			info.c2c_bad_rows == 1 ? "its" : "their");
	if (!rc && first && info.c2c_fixed_rows)
		fprintf(stderr, "structlint: warning: %s:%" PRIu64 ": %" PRIu64 " perf c2c Pareto "
			"row%s with counts that contradict each other (the first on this line: records %" PRIu64
			" < stores %" PRIu64 " + HITM and peer loads %" PRIu64 "): assumed loads = "
			"the HITM and peer loads, stores as printed (%" PRIu64 " samples where its "
			"records say %" PRIu64 "); regenerate the report (perf c2c report --stdio) "
			"if the counts were edited\n", c->samples, info.c2c_fixed_line,
			info.c2c_fixed_rows, info.c2c_fixed_rows == 1 ? "" : "s",
			info.c2c_fixed_records,
			info.c2c_fixed_stores, info.c2c_fixed_special,
			info.c2c_fixed_stores + info.c2c_fixed_special, info.c2c_fixed_records);
	if (!rc && first && info.unknown_keys)
		fprintf(stderr, "structlint: warning: %s:%" PRIu64 ": unknown key \"%s\" ignored%s%s%s"
			" (%" PRIu64 " unknown key%s in all; structlint.profile/v1's keys: structlint(1))\n",
			c->samples, info.unknown_line, info.unknown_key,
			info.unknown_near[0] ? ": did you mean \"" : "", info.unknown_near,
			info.unknown_near[0] ? "\"?" : "", info.unknown_keys,
			info.unknown_keys == 1 ? "" : "s");
	if (!rc && first && info.c2c_inferred)
		fprintf(stderr, "structlint: warning: %s: perf c2c Pareto blocks without their header "
			"lines: columns recognised from the rows (%u percentage columns read as HITM "
			"remote, local%s, then stores; a -d peer report's peer columns read as HITM)\n",
			c->samples, info.c2c_inferred, info.c2c_inferred == 6 ? ", peer" : "");
	if (!rc && first && info.c2c_node_info)
		fprintf(stderr, "structlint: note: %s: the perf c2c report's node column gives %s, not "
			"the CPUs: no per-CPU pairs (scored on the counts basis); perf c2c report -NN "
			"prints each row's CPUs (Node{cpu list}: the per-cpu basis)\n", c->samples,
			info.c2c_node_info == 2 ? "per node a CPU count and HITM/store percentages (-N)"
						: "the nodes");
	for (size_t i = 0; i < f.n; i++) {
		if (rc) {
			slt_join_free(joins[i]);
		} else {
			rc = slt_join_finish(joins[i], &profiles[i], err);
			if (rc && !err->file[0])
				snprintf(err->file, sizeof(err->file), "%s", c->samples);
			if (!rc && wi.estimated) { /* the basis, in every output */
				memcpy(profiles[i]->base_note, wi.basis, sizeof(wi.basis));
				profiles[i]->ip_recorded = wi.ip_samples;
				profiles[i]->ip_used = wi.ip_on_blocks;
				profiles[i]->writers_threads = wi.by_thread;
			}
		}
	}
	/* A path inside a member shown folded applies to the innermost
	 * member, on its own bytes: load the layout as with -E and join
	 * again (standard input is read once: -E is then up to the user) */
	for (size_t i = 0; i < f.n && !rc && first && !c->lopts.expand; i++) {
		const struct slt_access_profile *p = profiles[i];
		if (!p->folded_samples)
			continue;
		bool named = true;
		if ((rc = folded_named(c, l->structs[i].name, p, &named, err)) || !named)
			continue;
		bool again = strcmp(c->samples, "-") != 0;
		fprintf(stderr, "structlint: note: %s: %s.%s: a path inside a nested struct: %s\n",
			c->samples, l->structs[i].name, p->folded_path,
			again ? "its members are shown inline (as with -E)" :
			"its samples are counted on the whole nested struct (give -E to place them on their own bytes)");
		if (!again)
			break;
		for (size_t k = 0; k < f.n; k++) {
			slt_access_profile_free(profiles[k]);
			profiles[k] = NULL;
		}
		return CLI_JOIN_AGAIN;
	}
	/* Samples that say nothing about the struct are an input error, not
	 * a clean bill of health: a gate must not pass on them. */
	for (size_t i = 0; i < f.n && !rc; i++) {
		const struct slt_access_profile *p = profiles[i];
		for (size_t k = 0; k < p->n_unknown_members; k++) {
			const struct slt_unknown_member *u = &p->unknown_members[k];
			fprintf(stderr, "structlint: warning: %s: %s has no member '%s'%s%s%s; its %" PRIu64
				" samples are %s\n", c->samples, l->structs[i].name, u->name,
				u->suggestion ? " (did you mean " : "", u->suggestion ? u->suggestion : "",
				u->suggestion ? "?)" : "", u->samples,
				u->by_offset ? "placed by their offset" : "counted outside the members");
		}
		if (p->n_unknown_members && p->unknown_member_samples >
		    p->unknown_members[0].samples + (p->n_unknown_members > 1 ? p->unknown_members[1].samples : 0) +
		    (p->n_unknown_members > 2 ? p->unknown_members[2].samples : 0))
			fprintf(stderr, "structlint: warning: %s: more member paths that %s lacks (%" PRIu64
				" samples in all)\n", c->samples, l->structs[i].name, p->unknown_member_samples);
		if (p->counts_saturated)
			fprintf(stderr, "structlint: warning: %s: counts out of range (over 2^40 in a "
				"record, or 2^52 samples in all): capped there; the input is corrupt or "
				"does not hold counts\n", c->samples);
		if (p->samples == 0 && wi.estimated)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "record while the code touching it runs (structlint record -- CMD), or check that FILE is the binary that ran",
					   "none of the %" PRIu64 " IP samples fell on code accessing %s (%" PRIu64
					   " in %s, %" PRIu64 " sites in %" PRIu64 " basic blocks)",
					   wi.ip_samples, l->structs[i].name, wi.ip_in_binary, c->file,
					   wi.n_sites, wi.n_blocks);
		else if (p->samples == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   no_samples_hint(c),
					   "no memory-access samples in this input (%" PRIu64 " records skipped)",
					   info.skipped);
		else if (p->matched == 0 && p->n_other_types &&
			 p->skipped_other_type == p->samples)
			rc = other_types_error(p, l->structs[i].name, c->samples, err);
		else if (p->matched == 0 && p->unknown_member_samples == p->samples)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "name members of the struct (see the warnings above)",
					   "none of the %" PRIu64 " samples fell on %s: they name members it does not have",
					   p->samples, l->structs[i].name);
		else if (p->matched == 0 && text_without_mmaps(&info) && is_pie(c->file))
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "give the perf.data itself with FILE (its MMAP2 events relocate them), or the "
					   "run-time address: --base ADDR = the symbol's link address + the program's load "
					   "address (its mmap at offset 0 in 'perf script --show-mmap-events', lines "
					   "structlint does not read)",
					   "none of the %" PRIu64 " samples fell on %s (%s): %s is position-independent "
					   "(PIE) and %s text carries no MMAP events, so its run-time addresses cannot be "
					   "relocated to link addresses (--base SYMBOL gives the link address)",
					   p->samples, l->structs[i].name, p->base_note, c->file,
					   info.format == SLT_SAMPLES_PERF_SCRIPT ? "perf script" : "perf mem report");
		else if (p->matched == 0)
			rc = slt_error_set(err, SLT_EUSAGE, c->samples, -1,
					   "check the instance base: --base ADDR|SYMBOL or --line ADDR=N",
					   "none of the %" PRIu64 " samples fell on %s (%s)",
					   p->samples, l->structs[i].name, p->base_note);
		else if (p->base_method == SLT_BASE_EXPLICIT && p->outside_samples > p->matched &&
			 c->base_symbol && p->hole_samples < p->matched)
			/* the base is the symbol's own address and inside the
			 * instance the samples fall on members more than in
			 * holes: the rest are other objects of the program */
			fprintf(stderr, "structlint: note: %s: %" PRIu64 " of the %" PRIu64
				" samples fell on %s's members (%" PRIu64 " in its holes); the other %"
				PRIu64 " lie outside the instance (%s): other objects of the program\n",
				c->samples, p->matched, p->samples, l->structs[i].name, p->hole_samples,
				p->outside_samples - p->hole_samples, p->base_note);
		else if (p->base_method == SLT_BASE_EXPLICIT && p->outside_samples > p->matched)
			fprintf(stderr, "structlint: warning: %s: %" PRIu64 " of the %" PRIu64
				" samples fall outside %s's members, %" PRIu64 " on them, %" PRIu64
				" in its holes: check the base (%s)\n",
				c->samples, p->outside_samples, p->samples, l->structs[i].name,
				p->matched, p->hole_samples, p->base_note);
	}
	return rc;
}
