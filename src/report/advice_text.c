/* SPDX-License-Identifier: MIT */
/*
 * slt_report_advice_text(): the advisor's proposals for humans, best
 * first.  Per proposal:
 *
 *   /" "* structlint: proposal 1 of 3: regroup: 2560 -> 2560 bytes (+0),
 *      40 -> 40 cachelines, score 2 -> 0, cost 12.5 -> 3 *" "/
 *   /" "* slab, in a kmem_cache of its own with SLAB_HWCACHE_ALIGN
 *      (assumed: ...), 4 CPUs: 2560 B objects, 12 per order-3 slab (2730
 *      B of slab each) -> ...; kmalloc()'d instead: kmalloc-4k ->
 *      kmalloc-4k [, tips into a larger size class] *" "/
 *   /" "* moved: a, b, c *" "/ (relocated members; absent when none)
 *   /" "* shifted: N members (offsets changed by padding or relocated
 *      neighbours, order kept) *" "/ (absent when none)
 *   /" "* kernel group: M moves from A into B (a written group, as its
 *      class) *" "/ (one per member moved into another kernel group)
 *   /" "* lines each hot code path touches, before -> after (top N of M
 *      by samples): *" "/ and one line per path (profiles with code
 *      locations only)
 *   /" "* SUMMARY *" "/
 *   the new layout, as slt_report_layout_text() prints it (a forced
 *   alignment once where pahole repeats it on an inline type and member)
 *   /" "* C declaration: *" "/ and the declaration
 *   the unified diff, when the caller gives one
 *
 * Units: bytes, cachelines of opts->cacheline_size, scores in the
 * analysis' basis (include/structlint/analysis.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "join/join_int.h"
#include "report/heatmap.h"
#include "structlint/advice_report.h"
#include "structlint/weight.h"

const char *slt_proposal_kind_name(enum slt_proposal_kind k)
{
	switch (k) {
	case SLT_PROPOSAL_MINIMAL: return "minimal";
	case SLT_PROPOSAL_REGROUP: return "regroup";
	case SLT_PROPOSAL_PADDING: return "padding";
	case SLT_PROPOSAL_PARETO: return "pareto";
	case SLT_PROPOSAL_SIZE: return "size";
	case SLT_PROPOSAL_ISOLATE: return "isolate";
	}
	return "unknown";
}

/* "kmalloc-96", "kmalloc-4k", or over KMALLOC_MAX_CACHE_SIZE "page
 * allocator, order N" (report/heatmap.h: the HTML page names them too). */
const char *slt_slab_class_name(const struct slt_slab_cost *c, char *buf, size_t n)
{
	uint64_t bytes = c->kmalloc_class;
	if (c->page_allocator)
		snprintf(buf, n, "page allocator, order %u", c->page_order);
	else if (!bytes)
		snprintf(buf, n, "no kmalloc class");
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, n, "kmalloc-%" PRIu64 "k", bytes / 1024);
	else
		snprintf(buf, n, "kmalloc-%" PRIu64, bytes);
	return buf;
}

/* "1152 B objects, 28 per order-3 slab (1170 B of slab each)": the
 * bytes of slab per object compare two sides whose orders differ. */
static void slab_side(FILE *out, const struct slt_slab_cost *c)
{
	unsigned n = c->objects_per_slab;
	uint64_t slab = c->slab_bytes;
	fprintf(out, "%" PRIu64 " B objects, %u per order-%u slab (%" PRIu64
		" B of slab each)", c->object_size, n, c->order, n ? slab / n : 0);
}

/* The figures of a kmem_cache of its own, after the text already written:
 * which cache is assumed (the binary does not say), both sides, the
 * kmalloc classes, the comment's end. */
static void slab_figures(FILE *out, const struct slt_slab_cost *sb,
			 const struct slt_slab_cost *sa,
			 const struct slt_advice_report_opts *r)
{
	char b[40], a[40];
	if (sb->hwcache_align)
		fputs("with SLAB_HWCACHE_ALIGN (assumed: the instance starts a line)", out);
	else
		fprintf(out, "aligned to %u bytes (assumed: --base-align, no SLAB_HWCACHE_ALIGN)",
			sb->cache_align);
	if (r->nr_cpus)
		fprintf(out, ", %u CPUs", r->nr_cpus);
	fputs(": ", out);
	slab_side(out, sb);
	fputs(" -> ", out);
	slab_side(out, sa);
	fprintf(out, "; kmalloc()'d instead (a guess: the binary does not name the "
		"cache that allocates it): %s -> %s",
		slt_slab_class_name(sb, b, sizeof(b)), slt_slab_class_name(sa, a, sizeof(a)));
	if (slt_slab_tips(sb, sa))
		fputs(", tips into a larger size class", out);
	fputs(" */\n", out);
}

static void slab_line(FILE *out, const struct slt_proposal *p,
		      const struct slt_advice_report_opts *r)
{
	char b[40], a[40];
	const struct slt_slab_cost *sb = &p->slab_before, *sa = &p->slab_after;
	if (sb->embedded && !p->container) {
		fputs("/* slab: none of its own: the instance is a member of its container "
		      "(--in), whose slab object grows or shrinks with it (not priced here) */\n",
		      out);
		return;
	}
	if (sb->embedded) {
		/* --in: the container's figures (its own cache) */
		fprintf(out, "/* slab: none of its own: the instance is a member of its container "
			"(--in %s), which grows or shrinks with it: %" PRIu64 " -> %" PRIu64
			" bytes, %" PRIu64 " -> %" PRIu64 " cachelines; in a kmem_cache of its own ",
			p->container, p->container_size_before, p->container_size_after,
			p->container_lines_before, p->container_lines_after);
		slab_figures(out, &p->container_slab_before, &p->container_slab_after, r);
		return;
	}
	if (sb->no_slab_cache || sa->no_slab_cache) {
		fprintf(out, "/* slab: %s -> %s; %s */\n",
			slt_slab_class_name(sb, b, sizeof(b)),
			slt_slab_class_name(sa, a, sizeof(a)),
			sb->no_slab_cache && sa->no_slab_cache
				? "too large for any slab cache before and after"
				: "too large for a slab cache on one side");
		return;
	}
	if (p->user_space) {
		/* no slab in user space: a global, a static or a heap object */
		fprintf(out, "/* storage: user space, no slab: a global or static object "
			"of %" PRIu64 " -> %" PRIu64 " bytes (malloc()'d: its chunk "
			"rounds up) */\n", p->size_before, p->size_after);
		return;
	}
	/* the cache is the binary's unknown: say which one is assumed */
	fputs("/* slab, in a kmem_cache of its own ", out);
	slab_figures(out, sb, sa, r);
}

/* "/" "* HEAD a, b, c TAIL *" "/": the names of members idx[n] of the
 * analysed layout; nothing when n is 0. */
static void names_line(FILE *out, const struct slt_advice *adv, const char *head,
		       const size_t *idx, size_t n, const char *tail)
{
	const struct slt_struct *orig = adv->analysis ? adv->analysis->layout : NULL;
	if (!n || !orig)
		return;
	fprintf(out, "/* %s", head);
	for (size_t i = 0; i < n; i++) {
		const char *name = idx[i] < orig->n_members ? orig->members[idx[i]].name : "?";
		fprintf(out, "%s %s", i ? "," : "", name[0] ? name : "(anonymous)");
	}
	fprintf(out, "%s */\n", tail);
}

static void moved_line(FILE *out, const struct slt_advice *adv,
		       const struct slt_proposal *p)
{
	names_line(out, adv, "moved:", p->moved, p->n_moved, "");
	/* of these, the regroup's moves that only fill holes */
	names_line(out, adv, "of these, compaction only (filling holes; the sharing fix "
		   "does not need them):", p->compaction, p->n_compaction, "");
	/* unclassified members the proposal puts on a classed line */
	names_line(out, adv, "warning: moved onto a line with read-mostly or written "
		   "members, with no class:", p->unclassed, p->n_unclassed,
		   " (the model takes them for untouched: class them if hot paths use them)");
}

/* The members moved into another kernel cacheline group. */
static void group_lines(FILE *out, const struct slt_advice *adv,
			const struct slt_proposal *p)
{
	const struct slt_struct *orig = adv->analysis ? adv->analysis->layout : NULL;

	for (size_t i = 0; orig && i < p->n_group_moves; i++) {
		const struct slt_group_move *g = &p->group_moves[i];
		fprintf(out, "/* kernel group: %s moves from %s into %s (a %s group, "
			"as its class) */\n", orig->members[g->member].name, g->from,
			g->to, g->cls);
	}
}

static void shifted_line(FILE *out, const struct slt_proposal *p)
{
	if (p->n_shifted)
		fprintf(out, "/* shifted: %zu member%s (offset changed by padding or "
			"relocated neighbours, order kept) */\n", p->n_shifted,
			p->n_shifted == 1 ? "" : "s");
}

/* The lines each of the busiest code paths touches (profiles with code
 * locations only). */
static void paths_lines(FILE *out, const struct slt_proposal *p, bool estimated)
{
	if (!p->n_paths)
		return;
	/* estimates count loads + stores at the sites, not IP samples */
	const char *one = estimated ? "estimated access" : "sample";
	const char *many = estimated ? "estimated accesses" : "samples";
	fprintf(out, "/* lines each hot code path touches, before -> after (top %zu of "
		"%zu by %s): */\n", p->n_paths, p->n_paths_all, many);
	for (size_t i = 0; i < p->n_paths; i++)
		fprintf(out, "/*   %s: %" PRIu64 " -> %" PRIu64 " (%" PRIu64 " %s) */\n",
			p->paths[i].path, p->paths[i].lines_before,
			p->paths[i].lines_after, p->paths[i].samples,
			p->paths[i].samples == 1 ? one : many);
}

/* Members the profile shows truly shared (SLT_FIND_TRUE_SHARING: the
 * CPUs contend on the member itself): no proposal removes that bouncing,
 * whatever its score after says of false sharing; say so beside each. */
static void true_sharing_lines(FILE *out, const struct slt_advice *adv)
{
	const struct slt_analysis *a = adv->analysis;
	char path[512];
	for (size_t i = 0; a && a->findings && i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		if (f->kind != SLT_FIND_TRUE_SHARING || !f->n_members)
			continue;
		size_t m = f->members[0];
		unsigned w = a->classes ? a->classes[m].writers : 0;
		char by[48] = "";
		if (w)
			snprintf(by, sizeof(by), "stored to by %u CPU%s, ", w, w == 1 ? "" : "s");
		fprintf(out, "/* true sharing remains: %s (%sscore %g on line %" PRIu64 "): its own "
			"bouncing stays after this or any layout change; use per-CPU data or "
			"batch the updates */\n", slt_member_path(a->layout, m, path, sizeof(path)),
			by, f->score, f->line);
	}
}

static int proposal_text(FILE *out, const struct slt_advice *adv, size_t i,
			 const struct slt_report_opts *opts,
			 const struct slt_advice_report_opts *r,
			 struct slt_error *err)
{
	const struct slt_proposal *p = &adv->proposals[i];
	fprintf(out, "/* structlint: proposal %zu of %zu: %s: %" PRIu64 " -> %" PRIu64
		" bytes (%+" PRId64 "), %" PRIu64 " -> %" PRIu64 " cachelines, score %g -> %g, cost %g -> %g",
		i + 1, adv->n_proposals, slt_proposal_kind_name(p->kind),
		p->size_before, p->size_after, p->bytes_added,
		p->lines_before, p->lines_after, p->score_before, p->score_after,
		p->cost_before, p->cost_after);
	if (r->findings_after && r->findings_after[i] >= 0)
		fprintf(out, ", %zd finding%s left", r->findings_after[i],
			r->findings_after[i] == 1 ? "" : "s");
	fputs(" */\n", out);
	true_sharing_lines(out, adv);
	slab_line(out, p, r);
	moved_line(out, adv, p);
	shifted_line(out, p);
	group_lines(out, adv, p);
	paths_lines(out, p, r && r->basis && strstr(r->basis, SLT_IPW_BASIS));
	if (p->summary && p->summary[0])
		fprintf(out, "/* %s */\n", p->summary);
	struct slt_layout one = {
		.structs = (struct slt_struct *)&p->layout, .n_structs = 1,
		.format = p->layout.format,
	};
	struct slt_report_opts lo = *opts;
	lo.decl = false;
	lo.align_once = true;
	lo.user_pads = p->user_space;
	int rc = slt_report_layout_text(out, &one, &lo, err);
	if (rc)
		return rc;
	if (p->c_decl && p->c_decl[0]) {
		size_t n = strlen(p->c_decl);
		fprintf(out, "\n/* C declaration: */\n%s%s", p->c_decl,
			p->c_decl[n - 1] == '\n' ? "" : "\n");
	}
	const char *d = r->diffs ? r->diffs[i] : NULL;
	if (d && d[0]) {
		size_t n = strlen(d);
		fprintf(out, "\n/* diff: */\n%s%s", d, d[n - 1] == '\n' ? "" : "\n");
	}
	return 0;
}

int slt_report_advice_text(FILE *out, const struct slt_advice *advice,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *ropts,
			   struct slt_error *err)
{
	static const struct slt_report_opts no_opts = { 0 };
	static const struct slt_advice_report_opts no_ropts = { 0 };
	const struct slt_advice_report_opts *r = ropts ? ropts : &no_ropts;
	if (!opts)
		opts = &no_opts;
	if (r->basis)
		fprintf(out, "/* structlint: member accesses %s */\n", r->basis);
	if (!advice->n_proposals)
		fprintf(out, "/* structlint: no proposal%s%s */\n",
			advice->note && advice->note[0] ? ": " : "",
			advice->note ? advice->note : "");
	else if (advice->note && advice->note[0])
		fprintf(out, "/* structlint: %s */\n", advice->note);
	for (size_t i = 0; i < advice->n_proposals; i++) {
		if (i)
			fputc('\n', out);
		int rc = proposal_text(out, advice, i, opts, r, err);
		if (rc)
			return rc;
	}
	if (ferror(out))
		return slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	return 0;
}
