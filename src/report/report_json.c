/* SPDX-License-Identifier: MIT */
/*
 * slt_report_analysis_json(): schema "structlint.report/v1".
 *
 * {
 *   "schema": "structlint.report/v1",
 *   "struct": NAME, "size": BYTES, "cacheline_size": BYTES,
 *   "line_origin": BYTES (instance start within its line; lines are
 *                  counted from the line holding the start),
 *   "score_basis": "classes" | "counts" | "per-cpu",
 *   "thresholds": { "hot_write_ratio", "read_mostly_ratio", "min_share",
 *                   "true_share_cpus" },
 *   "base": { "method": "none"|"typed"|"explicit"|"hint"|"inferred",
 *             "address": "0x..." (explicit, hint, inferred only),
 *             "confidence": 0..1 (inferred; 1 for typed, explicit, hint),
 *             "note": TEXT },                          (absent: no samples)
 *   "samples": { "seen", "matched", "outside", "other_type" } (absent: no
 *             samples; counts of samples = loads + stores),
 *   "members": [ { "index", "path" (dotted, "" if anonymous), "name",
 *             "offset", "size" (bytes), "bit_offset", "bit_size" (bits,
 *             bitfields only), "depth", "parent" (index or -1),
 *             "lines": [FIRST, LAST], "class", "class_given": bool,
 *             "class_source": "static" (given classes proposed by the
 *             static access map), "given" (from a --classes file when
 *             merged with static ones; absent otherwise),
 *             "heat": 0..1, and with samples: "loads", "stores",
 *             "hitm_local", "hitm_remote", "peer_local", "peer_remote",
 *             "cycles", "cpus": [ { "cpu", "loads", "stores" } ],
 *             "locations": [ { "symbol", "source", "ip" ("0x..."), "loads",
 *             "stores", "hitm" } ] } ],
 *   "findings": [ { "rank" (1 = highest score), "kind": "collision" |
 *             "write-write" | "true-sharing" | "straddle" | "adjacent" |
 *             "unseen-writer" | "element-sharing",
 *             "line", "line2", "score", "layout_fixable": bool,
 *             "advice": TEXT, "members": [ { "index", "path", "offset",
 *             "size", "class", "written": bool, "unit" } ] } ]
 * }
 * Added within v1: "basis" (top level: where the classes or accesses
 * come from when not measured: static classes, IP-sample estimates) and
 * findings[].basis ("static classes", "estimated from IP samples");
 * members[].class_label and findings[].members[].
 * class_label (the writer label of a given hot-write:LABEL class, only when
 * there is one), findings[].members[].unit (the path of the outermost
 * named member holding it: the unit pairs are counted between),
 * "no_stores": true (only when the profile holds accesses but no store:
 * writes cannot be seen; its HITM loads give "unseen-writer" findings),
 * members[].class_measured (a given class's member: the class the samples
 * give it, when there are samples; true-shared there gives a true-sharing
 * finding whatever the given class),
 * findings[].kernel_groups: [ { "name", "class" ("read-mostly" |
 * "written" | "unclassified"), "offset", "end_offset" } ] (the kernel's
 * __cacheline_group_begin__NAME .. __cacheline_group_end__NAME groups
 * that hold one of the finding's members; absent when none does).
 * "bases" and findings[].bases (added within v1; only when the base is
 * known modulo an alignment below the line size: report --base-align):
 * "bases": { "align": BYTES, "starts": [ BYTES, ... ] (the instance's
 * possible starts within a line, ascending; line_origin is the one the
 * lines are counted at) }; findings[].bases: { "every": bool (the
 * finding holds wherever the instance starts), "held": N, "of": N,
 * "starts": [ BYTES, ... ] (where it holds: a finding of its kind on one
 * line names all its members), "line_origin": BYTES (the start its
 * "line" and "line2" are counted at) }.
 * Counts are JSON integers; addresses are strings "0x..." (kernel
 * addresses exceed JSON's safe integers).
 * Any change that drops or renames a key bumps the version.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <stdio.h>

#include "analysis/analysis_int.h"
#include "join/join_int.h"
#include "report/annotate.h"
#include "report/json_out.h"
#include "structlint/rules.h"
#include "structlint/analysis.h"

static const char *method_name(enum slt_base_method m)
{
	switch (m) {
	case SLT_BASE_TYPED: return "typed";
	case SLT_BASE_EXPLICIT: return "explicit";
	case SLT_BASE_HINT: return "hint";
	case SLT_BASE_INFERRED: return "inferred";
	default: return "none";
	}
}

#define U(v) json_integer((json_int_t)(v))




static json_t *access_json(json_t *o, const struct slt_member_access *m, bool *bad)
{
	slt_json_set(o, "loads", U(m->loads), bad);
	slt_json_set(o, "stores", U(m->stores), bad);
	slt_json_set(o, "hitm_local", U(m->hitm_local), bad);
	slt_json_set(o, "hitm_remote", U(m->hitm_remote), bad);
	slt_json_set(o, "peer_local", U(m->peer_local), bad);
	slt_json_set(o, "peer_remote", U(m->peer_remote), bad);
	slt_json_set(o, "cycles", U(m->cycles), bad);
	json_t *cpus = json_array();
	for (size_t c = 0; cpus && c < m->n_cpus; c++)
		slt_json_push(cpus, json_pack("{s:i,s:I,s:I}", "cpu", (int)m->cpus[c].cpu,
				     "loads", (json_int_t)m->cpus[c].loads,
				     "stores", (json_int_t)m->cpus[c].stores), bad);
	slt_json_set(o, "cpus", cpus, bad);
	json_t *locs = json_array();
	for (size_t l = 0; locs && l < m->n_locations; l++) {
		const struct slt_code_location *cl = &m->locations[l];
		slt_json_push(locs, json_pack("{s:s,s:s,s:o,s:I,s:I,s:I}",
				     "symbol", cl->symbol ? cl->symbol : "",
				     "source", cl->source ? cl->source : "",
				     "ip", slt_json_hex(cl->ip),
				     "loads", (json_int_t)cl->loads,
				     "stores", (json_int_t)cl->stores,
				     "hitm", (json_int_t)cl->hitm), bad);
	}
	slt_json_set(o, "locations", locs, bad);
	return o;
}

static json_t *members_json(const struct slt_analysis *a, const struct slt_report_opts *ro,
			    bool *bad)
{
	const struct slt_struct *s = a->layout;
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < s->n_members; i++) {
		const struct slt_member *m = &s->members[i];
		char path[512];
		uint64_t f = (a->line_origin + m->offset) / a->cacheline_size;
		uint64_t l = m->size ? (a->line_origin + m->offset + m->size - 1) /
				       a->cacheline_size : f;
		json_t *o = json_object();
		if (!o) {
			*bad = true;
			break;
		}
		slt_json_set(o, "index", U(i), bad);
		slt_json_set(o, "path", json_string(slt_member_path(s, i, path, sizeof(path))), bad);
		slt_json_set(o, "name", json_string(m->name), bad);
		slt_json_set(o, "offset", U(m->offset), bad);
		slt_json_set(o, "size", U(m->size), bad);
		if (m->flags & SLT_MEMBER_BITFIELD) {
			slt_json_set(o, "bit_offset", U(m->bit_offset), bad);
			slt_json_set(o, "bit_size", U(m->bit_size), bad);
		}
		slt_json_set(o, "depth", U(m->depth), bad);
		slt_json_set(o, "parent", json_integer(m->parent), bad);
		slt_json_set(o, "lines", json_pack("[I,I]", (json_int_t)f, (json_int_t)l), bad);
		slt_json_set(o, "class", json_string(slt_class_name(a->classes[i].cls)), bad);
		slt_json_set(o, "class_given", json_boolean(a->classes[i].given), bad);
		if (a->classes[i].given && ro && (ro->given_word || ro->member_sources))
			slt_json_set(o, "class_source",
				     json_string(slt_report_class_source(a, ro, i)), bad);
		if (a->classes[i].label)
			slt_json_set(o, "class_label", json_string(a->classes[i].label), bad);
		if (a->classes[i].given && a->classes[i].measured != SLT_CLASS_NONE)
			slt_json_set(o, "class_measured",
				     json_string(slt_class_name(a->classes[i].measured)), bad);
		slt_json_set(o, "heat", json_real(a->classes[i].heat), bad);
		if (a->profile && a->profile->members)
			access_json(o, &a->profile->members[i], bad);
		slt_json_push(arr, o, bad);
	}
	return arr;
}

/* The kernel cacheline groups finding f's members are in, or NULL when
 * none is. */
static json_t *groups_json(const struct slt_struct *s, const struct slt_cl_group *g,
			   size_t n, size_t *touched, const struct slt_finding *f, bool *bad)
{
	size_t nt = touched ? slt_groups_touched(s, g, n, f->members, f->n_members, touched) : 0;
	json_t *arr = nt ? json_array() : NULL;
	for (size_t k = 0; arr && k < nt; k++) {
		const struct slt_cl_group *x = &g[touched[k]];
		slt_json_push(arr, json_pack("{s:s,s:s,s:I,s:I}", "name", x->name,
					     "class", slt_group_class_name(x->cls),
					     "offset", (json_int_t)x->offset,
					     "end_offset", (json_int_t)x->end_offset), bad);
	}
	if (nt && !arr)
		*bad = true;
	return arr;
}

/* finding f's "bases" (a->n_bases > 1), see the top. */
static json_t *bases_json(const struct slt_analysis *a, const struct slt_finding *f, bool *bad)
{
	json_t *st = json_array();
	json_int_t k = 0;
	for (uint32_t b = 0; st && b < a->n_bases; b++)
		if ((f->bases >> b) & 1) {
			slt_json_push(st, U(a->base_starts[b]), bad);
			k++;
		}
	json_t *o = st ? json_pack("{s:b,s:I,s:I,s:o,s:I}", "every", k == (json_int_t)a->n_bases,
				   "held", k, "of", (json_int_t)a->n_bases, "starts", st,
				   "line_origin", (json_int_t)f->origin) : NULL;
	if (!o)
		*bad = true;
	return o;
}

static json_t *findings_json(const struct slt_analysis *a, const struct slt_report_opts *ro,
			     bool *bad)
{
	const char *basis = slt_report_findings_basis(a, ro);
	const struct slt_struct *s = a->layout;
	struct slt_cl_group *groups = NULL;
	size_t n_groups = 0, *touched = NULL;
	if (a->n_findings && slt_groups_find(s, &groups, &n_groups, NULL))
		*bad = true;
	if (n_groups && !(touched = calloc(n_groups, sizeof(*touched))))
		*bad = true;
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < a->n_findings; i++) {
		const struct slt_finding *f = &a->findings[i];
		json_t *ms = json_array();
		for (size_t k = 0; ms && k < f->n_members; k++) {
			size_t mi = f->members[k];
			char path[512], unit[512];
			json_t *m = json_pack("{s:I,s:s,s:I,s:I,s:s,s:b,s:s}",
					   "index", (json_int_t)mi,
					   "path", slt_member_path(s, mi, path, sizeof(path)),
					   "offset", (json_int_t)s->members[mi].offset,
					   "size", (json_int_t)s->members[mi].size,
					   "class", slt_class_name(a->classes[mi].cls),
					   "written", k < f->n_writers,
					   "unit", slt_member_path(s, slt_member_unit(s, mi), unit, sizeof(unit)));
			if (m && a->classes[mi].label)
				slt_json_set(m, "class_label", json_string(a->classes[mi].label), bad);
			slt_json_push(ms, m, bad);
		}
		json_t *o = json_pack("{s:I,s:s,s:I,s:I,s:f,s:b,s:s}",
				      "rank", (json_int_t)(i + 1),
				      "kind", slt_finding_kind_name(f->kind),
				      "line", (json_int_t)f->line,
				      "line2", (json_int_t)f->line2,
				      "score", f->score,
				      "layout_fixable", f->layout_fixable,
				      "advice", f->advice);
		if (o)
			slt_json_set(o, "members", ms, bad);
		else
			json_decref(ms);
		json_t *kg = groups_json(s, groups, n_groups, touched, f, bad);
		if (o && kg)
			slt_json_set(o, "kernel_groups", kg, bad);
		if (o && a->n_bases > 1)
			slt_json_set(o, "bases", bases_json(a, f, bad), bad);
		if (o && basis)
			slt_json_set(o, "basis", json_string(basis), bad);
		slt_json_push(arr, o, bad);
	}
	free(groups);
	free(touched);
	return arr;
}

int slt_report_analysis_json(FILE *out, const struct slt_analysis *a,
			     const struct slt_report_opts *opts,
			     struct slt_error *err)
{
	bool bad = false;
	const struct slt_struct *s = a->layout;
	const struct slt_access_profile *p = a->profile;
	json_t *root = json_object();
	if (!root)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	slt_json_set(root, "schema", json_string(SLT_SCHEMA_REPORT), &bad);
	slt_json_set(root, "struct", json_string(s->name), &bad);
	slt_json_set(root, "size", U(s->size), &bad);
	slt_json_set(root, "cacheline_size", U(a->cacheline_size), &bad);
	slt_json_set(root, "line_origin", U(a->line_origin), &bad);
	if (a->n_bases > 1) {
		json_t *st = json_array();
		for (uint32_t b = 0; st && b < a->n_bases; b++)
			slt_json_push(st, U(a->base_starts[b]), &bad);
		slt_json_set(root, "bases", st ? json_pack("{s:I,s:o}", "align",
			(json_int_t)(a->base_starts[1] - a->base_starts[0]), "starts", st) : NULL, &bad);
	}
	slt_json_set(root, "score_basis", json_string(slt_score_basis_name(a->basis)), &bad);
	slt_json_set(root, "thresholds", json_pack("{s:f,s:f,s:f,s:i}",
		"hot_write_ratio", a->classify.hot_write_ratio,
		"read_mostly_ratio", a->classify.read_mostly_ratio,
		"min_share", a->classify.min_share,
		"true_share_cpus", (int)a->classify.true_share_cpus), &bad);
	if (p) {
		json_t *b = json_pack("{s:s,s:f,s:s}", "method", method_name(p->base_method),
				      "confidence", p->confidence, "note", p->base_note);
		if (b && p->base_method >= SLT_BASE_EXPLICIT)
			slt_json_set(b, "address", slt_json_hex(p->base), &bad);
		slt_json_set(root, "base", b, &bad);
		slt_json_set(root, "samples", json_pack("{s:I,s:I,s:I,s:I}",
			"seen", (json_int_t)p->samples, "matched", (json_int_t)p->matched,
			"outside", (json_int_t)p->outside_samples,
			"other_type", (json_int_t)p->skipped_other_type), &bad);
		if (p->ip_recorded) {   /* estimates: seen counts accesses */
			json_t *sm = json_object_get(root, "samples");
			slt_json_set(sm, "ip_recorded", json_integer((json_int_t)p->ip_recorded), &bad);
			slt_json_set(sm, "ip_used", json_integer((json_int_t)p->ip_used), &bad);
		}
	}
	if (a->no_stores)
		slt_json_set(root, "no_stores", json_true(), &bad);
	if (opts && opts->basis)
		slt_json_set(root, "basis", json_string(opts->basis), &bad);
	slt_json_set(root, "members", members_json(a, opts, &bad), &bad);
	slt_json_set(root, "findings", findings_json(a, opts, &bad), &bad);
	return slt_json_write(out, root, bad, opts && opts->pretty,
			      "the JSON report", err);
}
