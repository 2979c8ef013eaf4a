/* SPDX-License-Identifier: MIT */
/*
 * slt_report_advice_json(): schema "structlint.advice/v1".
 *
 * {
 *   "schema": "structlint.advice/v1",
 *   "struct": NAME, "size": BYTES, "cacheline_size": BYTES,
 *   "score_basis": "classes" | "counts" | "per-cpu",
 *   "findings": N (findings of the analysis the advice started from),
 *   "nr_cpus": N (CPU count of the SLUB figures; absent when not given),
 *   "separation": BYTES (absent when not given),
 *   "note": TEXT (why nothing is proposed, or, within v1, why every
 *            proposal leaves sharing; or ""),
 *   "basis": TEXT (only when the accesses are estimates: "estimated from
 *            IP samples x static sites (...)", or static classes: "counted
 *            in the machine code: classes proposed by the static access
 *            map of FILE (static)..."),
 *   "suspect": TEXT (additive: why the layout is suspect and nothing is
 *             proposed, or ""),
 *   "proposals": [ {                       (best first)
 *     "rank": 1.., "kind": "minimal" | "regroup" | "padding" | "pareto" |
 *             "size" | "isolate",
 *     "summary": TEXT,
 *     "size_before", "size_after": BYTES, "bytes_added": BYTES (signed),
 *     "lines_before", "lines_after": cachelines,
 *     "score_before", "score_after": the findings' estimator,
 *     "cost_before", "cost_after": the advisor's objective,
 *     "findings_after": N (findings when the proposal's layout is analysed
 *             again with the same classes, with samples the classes they
 *             gave; absent when not re-checked),
 *     "slab_before", "slab_after": { "kmalloc_class": BYTES (0: none,
 *             over 8 KiB), "page_allocator_order": N (only then: kmalloc()
 *             takes 1 << N pages from the page allocator),
 *             "order", "objects_per_slab", "waste_per_slab": BYTES,
 *             additive: "object_size", "slab_bytes" (page << order),
 *             "cache_align": BYTES,
 *             "hwcache_align", "embedded": bool (the cache assumed, the
 *             same both sides: slt_slab_cache_align(); order and objects
 *             per slab are a kmem_cache's of object_size, kmalloc_class
 *             what kmalloc() of the size would take; embedded: the
 *             instance is in a container (--in), not a slab object) },
 *     "storage": "slab" (kernel: the figures of slab_before/after),
 *             "container" (--in: the container's figures only, under
 *             "container"; slab_before/after say {"embedded": true}),
 *             "embedded" (in a container not named), "user-space" (no
 *             slab: a global, static or heap object; the figures are the
 *             kernel model's, for comparison only),
 *     "tips_size_class": bool (a larger kmalloc class after than before;
 *             the container's under --in),
 *     "container": (--in only) { "in": CONTAINER.MEMBER, "size_before",
 *             "size_after": BYTES, "lines_before", "lines_after",
 *             "slab_before", "slab_after": as above, the container's in a
 *             kmem_cache of its own } (the instance's growth placed in it),
 *     "moved": [ NAME ] (slt_proposal.moved: top-level members of the
 *             original layout relocated, the summary's count; "" when
 *             anonymous),
 *     "shifted": [ NAME ] (top-level members whose offset changed, order
 *             kept: shifted by padding or relocated neighbours),
 *     "compaction": [ NAME ] (regroup, only when some: of "moved", the
 *             members with no class whose move only fills holes: put
 *             back, the layout shares no more),
 *     "unclassified_moved": [ NAME ] (only when some: members moved or
 *             shifted that have no class and now share a line with a
 *             read-mostly or written member they did not share one with;
 *             the model takes them for untouched),
 *     "group_moves": [ {"member", "from", "to", "class"} ] (only when a
 *             member moves from its kernel cacheline group into another
 *             of its class, with --move-anchors),
 *     "isolated": NAME (kind "isolate" only: the member put alone in a
 *             line-aligned anonymous struct),
 *     "paths": [ { "path", "samples", "lines_before", "lines_after" } ]
 *             (additive: the busiest code paths, most samples first, and
 *             the cachelines of the struct each touches),
 *     "paths_total": N, "path_lines_before", "path_lines_after": sums of
 *             the lines over all N paths (these four only with a profile
 *             that names code locations),
 *     "layout": { "size", "alignment" (bytes), "members": [ { "name",
 *             "type", "offset", "size" (bytes), "alignment" (bytes:
 *             forced, else natural), "bit_offset", "bit_size" (bits,
 *             bitfields only), "depth" } ] },
 *     "c_decl": TEXT, "diff": TEXT (absent without --source-root) } ]
 * }
 * Any change that drops or renames a key bumps the version.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/json_out.h"
#include "structlint/advice_report.h"

#define U(v) json_integer((json_int_t)(v))



/* The names of members idx[n] of orig ("" when anonymous or unknown). */
static json_t *names_json(const struct slt_struct *orig, const size_t *idx, size_t n,
			  bool *bad)
{
	json_t *a = json_array();
	for (size_t k = 0; a && k < n; k++)
		slt_json_push(a, json_string(orig && idx[k] < orig->n_members ?
					     orig->members[idx[k]].name : ""), bad);
	return a;
}

static json_t *slab_json(const struct slt_slab_cost *s)
{
	json_t *o = json_pack("{s:I,s:i,s:i,s:I}",
			 "kmalloc_class", (json_int_t)s->kmalloc_class,
			 "order", (int)s->order,
			 "objects_per_slab", (int)s->objects_per_slab,
			 "waste_per_slab", (json_int_t)s->waste_per_slab);
	/* additive: kmalloc() above KMALLOC_MAX_CACHE_SIZE */
	if (o && s->page_allocator &&
	    json_object_set_new(o, "page_allocator_order", json_integer(s->page_order))) {
		json_decref(o);
		return NULL;
	}
	if (o && s->no_slab_cache &&
	    json_object_set_new(o, "no_slab_cache", json_true())) {
		json_decref(o);
		return NULL;
	}
	/* additive: the cache model (slt_slab_cache_align()) */
	if (o && (json_object_set_new(o, "object_size", U(s->object_size)) ||
		  json_object_set_new(o, "slab_bytes", U(s->slab_bytes)) ||
		  json_object_set_new(o, "cache_align", U(s->cache_align)) ||
		  json_object_set_new(o, "hwcache_align", json_boolean(s->hwcache_align)) ||
		  json_object_set_new(o, "embedded", json_boolean(s->embedded)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *layout_json(const struct slt_struct *s, bool *bad)
{
	json_t *o = json_object(), *ms = json_array();
	if (!o || !ms) {
		json_decref(o);
		json_decref(ms);
		*bad = true;
		return NULL;
	}
	slt_json_set(o, "size", U(s->size), bad);
	slt_json_set(o, "alignment", U(s->alignment), bad);
	for (size_t i = 0; i < s->n_members && !*bad; i++) {
		const struct slt_member *m = &s->members[i];
		json_t *j = json_object();
		if (!j) {
			*bad = true;
			break;
		}
		slt_json_set(j, "name", json_string(m->name ? m->name : ""), bad);
		slt_json_set(j, "type", json_string(m->type ? m->type : ""), bad);
		slt_json_set(j, "offset", U(m->offset), bad);
		slt_json_set(j, "size", U(m->size), bad);
		slt_json_set(j, "alignment", U(m->alignment ? m->alignment : m->natural_alignment), bad);
		if (m->flags & SLT_MEMBER_BITFIELD) {
			slt_json_set(j, "bit_offset", U(m->bit_offset), bad);
			slt_json_set(j, "bit_size", U(m->bit_size), bad);
		}
		slt_json_set(j, "depth", U(m->depth), bad);
		slt_json_push(ms, j, bad);
	}
	slt_json_set(o, "members", ms, bad);
	return o;
}

static json_t *proposal_json(const struct slt_advice *adv, size_t i,
			     const struct slt_advice_report_opts *r, bool *bad)
{
	const struct slt_proposal *p = &adv->proposals[i];
	const struct slt_struct *orig = adv->analysis ? adv->analysis->layout : NULL;
	json_t *o = json_object();
	if (!o) {
		*bad = true;
		return NULL;
	}
	slt_json_set(o, "rank", U(i + 1), bad);
	slt_json_set(o, "kind", json_string(slt_proposal_kind_name(p->kind)), bad);
	slt_json_set(o, "summary", json_string(p->summary ? p->summary : ""), bad);
	if (p->isolated)
		slt_json_set(o, "isolated", json_string(p->isolated), bad);
	slt_json_set(o, "size_before", U(p->size_before), bad);
	slt_json_set(o, "size_after", U(p->size_after), bad);
	slt_json_set(o, "bytes_added", U(p->bytes_added), bad);
	slt_json_set(o, "lines_before", U(p->lines_before), bad);
	slt_json_set(o, "lines_after", U(p->lines_after), bad);
	slt_json_set(o, "score_before", json_real(p->score_before), bad);
	slt_json_set(o, "score_after", json_real(p->score_after), bad);
	slt_json_set(o, "cost_before", json_real(p->cost_before), bad);
	slt_json_set(o, "cost_after", json_real(p->cost_after), bad);
	if (r->findings_after && r->findings_after[i] >= 0)
		slt_json_set(o, "findings_after", U(r->findings_after[i]), bad);
	/* one set of slab figures: inside a container (--in) the container
	 * is what is allocated, so the instance's own carry none */
	bool inside = p->slab_before.embedded && p->container;
	slt_json_set(o, "storage", json_string(inside ? "container" :
			p->slab_before.embedded ? "embedded" :
			p->user_space ? "user-space" : "slab"), bad);
	if (inside) {
		json_t *e = json_object();
		slt_json_set(e, "embedded", json_true(), bad);
		slt_json_set(o, "slab_before", e, bad);
		slt_json_set(o, "slab_after", json_incref(e), bad);
	} else {
		slt_json_set(o, "slab_before", slab_json(&p->slab_before), bad);
		slt_json_set(o, "slab_after", slab_json(&p->slab_after), bad);
	}
	slt_json_set(o, "tips_size_class", json_boolean(inside ?
	    slt_slab_tips(&p->container_slab_before, &p->container_slab_after) :
	    slt_slab_tips(&p->slab_before, &p->slab_after)), bad);
	if (p->container) {
		json_t *c = json_object();
		slt_json_set(c, "in", json_string(p->container), bad);
		slt_json_set(c, "size_before", U(p->container_size_before), bad);
		slt_json_set(c, "size_after", U(p->container_size_after), bad);
		slt_json_set(c, "lines_before", U(p->container_lines_before), bad);
		slt_json_set(c, "lines_after", U(p->container_lines_after), bad);
		slt_json_set(c, "slab_before", slab_json(&p->container_slab_before), bad);
		slt_json_set(c, "slab_after", slab_json(&p->container_slab_after), bad);
		slt_json_set(o, "container", c, bad);
	}
	slt_json_set(o, "moved", names_json(orig, p->moved, p->n_moved, bad), bad);
	slt_json_set(o, "shifted", names_json(orig, p->shifted, p->n_shifted, bad), bad);
	if (p->n_compaction)
		slt_json_set(o, "compaction", names_json(orig, p->compaction, p->n_compaction, bad), bad);
	if (p->n_unclassed)
		slt_json_set(o, "unclassified_moved",
			     names_json(orig, p->unclassed, p->n_unclassed, bad), bad);
	if (p->n_group_moves) {
		json_t *gm = json_array();
		for (size_t k = 0; gm && k < p->n_group_moves; k++) {
			const struct slt_group_move *g = &p->group_moves[k];
			json_t *e = json_object();
			if (!e) {
				*bad = true;
				continue;
			}
			slt_json_set(e, "member", json_string(orig && g->member < orig->n_members ?
						    orig->members[g->member].name : ""), bad);
			slt_json_set(e, "from", json_string(g->from), bad);
			slt_json_set(e, "to", json_string(g->to), bad);
			slt_json_set(e, "class", json_string(g->cls), bad);
			slt_json_push(gm, e, bad);
		}
		slt_json_set(o, "group_moves", gm, bad);
	}
	if (p->n_paths_all) {
		json_t *pa = json_array();
		for (size_t k = 0; pa && k < p->n_paths; k++) {
			const struct slt_path_lines *x = &p->paths[k];
			json_t *e = json_object();
			if (!e) {
				*bad = true;
				continue;
			}
			slt_json_set(e, "path", json_string(x->path), bad);
			slt_json_set(e, "samples", U(x->samples), bad);
			slt_json_set(e, "lines_before", U(x->lines_before), bad);
			slt_json_set(e, "lines_after", U(x->lines_after), bad);
			slt_json_push(pa, e, bad);
		}
		slt_json_set(o, "paths", pa, bad);
		slt_json_set(o, "paths_total", U(p->n_paths_all), bad);
		slt_json_set(o, "path_lines_before", U(p->path_lines_before), bad);
		slt_json_set(o, "path_lines_after", U(p->path_lines_after), bad);
	}
	slt_json_set(o, "layout", layout_json(&p->layout, bad), bad);
	slt_json_set(o, "c_decl", json_string(p->c_decl ? p->c_decl : ""), bad);
	if (r->diffs && r->diffs[i])
		slt_json_set(o, "diff", json_string(r->diffs[i]), bad);
	return o;
}

int slt_report_advice_json(FILE *out, const struct slt_advice *advice,
			   const struct slt_report_opts *opts,
			   const struct slt_advice_report_opts *ropts,
			   struct slt_error *err)
{
	static const struct slt_advice_report_opts no_ropts = { 0 };
	const struct slt_advice_report_opts *r = ropts ? ropts : &no_ropts;
	const struct slt_analysis *a = advice->analysis;
	bool bad = false;
	json_t *root = json_object(), *props = json_array();
	if (!root || !props) {
		json_decref(root);
		json_decref(props);
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	}
	slt_json_set(root, "schema", json_string(SLT_SCHEMA_ADVICE), &bad);
	if (a) {
		slt_json_set(root, "struct", json_string(a->layout->name), &bad);
		slt_json_set(root, "size", U(a->layout->size), &bad);
		slt_json_set(root, "cacheline_size", U(a->cacheline_size), &bad);
		slt_json_set(root, "score_basis", json_string(slt_score_basis_name(a->basis)), &bad);
		slt_json_set(root, "findings", U(a->n_findings), &bad);
	}
	if (r->nr_cpus)
		slt_json_set(root, "nr_cpus", U(r->nr_cpus), &bad);
	if (r->separation)
		slt_json_set(root, "separation", U(r->separation), &bad);
	slt_json_set(root, "note", json_string(advice->note ? advice->note : ""), &bad);
	if (ropts && ropts->basis)
		slt_json_set(root, "basis", json_string(ropts->basis), &bad);
	slt_json_set(root, "suspect",
		     json_string(advice->suspect ? advice->suspect : ""), &bad);
	for (size_t i = 0; i < advice->n_proposals && !bad; i++)
		slt_json_push(props, proposal_json(advice, i, r, &bad), &bad);
	slt_json_set(root, "proposals", props, &bad);
	return slt_json_write(out, root, bad, opts && opts->pretty,
			      "the JSON advice", err);
}
