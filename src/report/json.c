/* SPDX-License-Identifier: MIT */
/*
 * JSON writers: layouts (schema "structlint.layout/v1") and type lists
 * ("structlint.types/v1"), built completely with jansson before writing.
 *
 * structlint.layout/v1:
 *   {"schema", "cacheline_size", "structs": [{
 *      "name", "kind": "struct"|"union", "size", "alignment", "cachelines",
 *      "decl_file", "decl_line", "format": "dwarf"|"btf",
 *      "forced_alignment" (only when __aligned__ on the type),
 *      "packed" (only when true),
 *      "members": [ flat, in pahole order (pre-order): {
 *         "name" ("" when anonymous), "type" (pahole's spelling),
 *         "offset", "size" (bytes, absolute from the outermost struct;
 *         storage unit for bitfields), "depth" (0 at top level),
 *         "parent" (index in "members" of the enclosing inline member,
 *         -1 at top level), "cachelines": [first..last line index] for
 *         a member on at most SLT_JSON_MAX_LINE_LIST (64) lines, else
 *         "cacheline_range": [first, last] instead (added in v1: output
 *         that follows members, not bytes, for char big[1UL << 40]),
 *         "bit_offset", "bit_size" (bitfields only),
 *         "alignment" (only when forced: DW_AT_alignment or inferred),
 *         "flags": [ "bitfield", "anon", "inline", "union", "composite",
 *                    "flex", "zero_size", "group_begin", "group_end",
 *                    "packed" ] (only the ones set),
 *         "type_padding" (only when non-zero) }],
 *      "holes": [{"offset", "size", "after", "parent"}]  byte holes,
 *      "bit_holes": [{"offset", "size_bits", "after", "parent"}],
 *         both in offset order, nested levels' included ("offset" of a
 *         bit hole: its storage unit's first byte),
 *      "padding", "bit_padding",
 *      "summary": {"members" (top level), "sum_members", "holes",
 *         "sum_holes", "sum_bitfield_bits", "bit_holes", "sum_bit_holes",
 *         "paddings", "sum_paddings", "forced_alignments", "forced_holes",
 *         "sum_forced_holes", "last_cacheline"} }]}
 * "after" is the index of the member a hole follows, -1 before the first
 * member of its level.  A flat list with "parent"/"depth" keeps consumers
 * simple: filter depth == 0 for pahole's top-level view.
 */
#include <jansson.h>
#include <string.h>

/* The longest per-member list of line indexes written out. */
#define SLT_JSON_MAX_LINE_LIST 64

#include "report/json_out.h"
#include "structlint/report.h"

static int set(json_t *o, const char *k, json_t *v)
{
	return v ? json_object_set_new(o, k, v) : -1;
}

static json_t *uint_j(uint64_t v)
{
	return json_integer((json_int_t)v);
}

static unsigned cl_of(const struct slt_report_opts *opts)
{
	return opts && opts->cacheline_size ? opts->cacheline_size
					     : SLT_CACHELINE_DEFAULT;
}

static const char *const flag_names[] = {
	"bitfield", "anon", "inline", "union", "composite", "flex",
	"zero_size", "group_begin", "group_end", "packed",
};

static json_t *member_j(const struct slt_member *m, unsigned cl)
{
	json_t *o = json_object(), *lines = json_array(), *flags = json_array();
	uint64_t first, last;
	int rc = 0;

	if (!o || !lines || !flags)
		goto fail;
	slt_member_lines(m, cl, &first, &last);
	if (last - first < SLT_JSON_MAX_LINE_LIST) {
		for (uint64_t l = first; l <= last && !rc; l++)
			rc |= json_array_append_new(lines, uint_j(l));
	} else { /* the output follows members, not bytes */
		json_decref(lines);
		lines = NULL;
	}
	for (unsigned b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++)
		if (m->flags & (1u << b))
			rc |= json_array_append_new(flags, json_string(flag_names[b]));
	rc |= set(o, "name", json_string(m->name));
	rc |= set(o, "type", json_string(m->type));
	rc |= set(o, "offset", uint_j(m->offset));
	rc |= set(o, "size", uint_j(m->size));
	if (m->flags & SLT_MEMBER_BITFIELD) {
		rc |= set(o, "bit_offset", uint_j(m->bit_offset));
		rc |= set(o, "bit_size", uint_j(m->bit_size));
	}
	if (m->alignment)
		rc |= set(o, "alignment", uint_j(m->alignment));
	rc |= set(o, "depth", uint_j(m->depth));
	rc |= set(o, "parent", json_integer(m->parent));
	if (lines)
		rc |= set(o, "cachelines", lines);
	else
		rc |= set(o, "cacheline_range", json_pack("[I,I]", (json_int_t)first,
							  (json_int_t)last));
	lines = NULL;
	rc |= set(o, "flags", flags);
	flags = NULL;
	if (m->type_padding)
		rc |= set(o, "type_padding", uint_j(m->type_padding));
	if (rc)
		goto fail;
	return o;
fail:
	json_decref(o);
	json_decref(lines);
	json_decref(flags);
	return NULL;
}

static json_t *struct_j(const struct slt_struct *s, unsigned cl)
{
	json_t *o = json_object(), *ms = json_array(), *hs = json_array(),
	       *bhs = json_array(), *sum = json_object();
	int rc = 0;

	if (!o || !ms || !hs || !bhs || !sum)
		goto fail;
	for (size_t i = 0; i < s->n_members && !rc; i++) {
		json_t *m = member_j(&s->members[i], cl);
		rc |= m ? json_array_append_new(ms, m) : -1;
	}
	for (size_t i = 0; i < s->n_holes && !rc; i++) {
		const struct slt_hole *h = &s->holes[i];
		json_t *j = json_object();
		if (!j) {
			rc = -1;
			break;
		}
		rc |= set(j, "offset", uint_j(h->offset));
		rc |= set(j, h->flags & SLT_HOLE_BITS ? "size_bits" : "size",
			  uint_j(h->size));
		rc |= set(j, "after", json_integer(h->after == UINT32_MAX ? -1
							   : (json_int_t)h->after));
		rc |= set(j, "parent", json_integer(h->parent));
		rc |= json_array_append_new(h->flags & SLT_HOLE_BITS ? bhs : hs, j);
	}
	rc |= set(sum, "members", uint_j(s->n_top_members));
	rc |= set(sum, "sum_members", uint_j(s->sum_members));
	rc |= set(sum, "holes", uint_j(s->n_byte_holes));
	rc |= set(sum, "sum_holes", uint_j(s->sum_byte_holes));
	rc |= set(sum, "sum_bitfield_bits", uint_j(s->sum_bitfield_bits));
	rc |= set(sum, "bit_holes", uint_j(s->n_bit_holes));
	rc |= set(sum, "sum_bit_holes", uint_j(s->sum_bit_holes));
	rc |= set(sum, "paddings", uint_j(s->n_paddings));
	rc |= set(sum, "sum_paddings", uint_j(s->sum_paddings));
	rc |= set(sum, "forced_alignments", uint_j(s->n_forced_alignments));
	rc |= set(sum, "forced_holes", uint_j(s->n_forced_holes));
	rc |= set(sum, "sum_forced_holes", uint_j(s->sum_forced_holes));
	rc |= set(sum, "last_cacheline", uint_j(s->size % cl));

	rc |= set(o, "name", json_string(s->name));
	rc |= set(o, "kind", json_string(s->kind == SLT_KIND_UNION ? "union" : "struct"));
	rc |= set(o, "format", json_string(slt_format_name(s->format)));
	rc |= set(o, "size", uint_j(s->size));
	rc |= set(o, "alignment", uint_j(s->alignment));
	if (s->forced_alignment)
		rc |= set(o, "forced_alignment", uint_j(s->forced_alignment));
	if (s->packed)
		rc |= set(o, "packed", json_true());
	rc |= set(o, "cachelines", uint_j(slt_cachelines(s->size, cl)));
	rc |= set(o, "decl_file", json_string(s->decl_file ? s->decl_file : ""));
	rc |= set(o, "decl_line", uint_j(s->decl_line));
	rc |= set(o, "members", ms);
	ms = NULL;
	rc |= set(o, "holes", hs);
	hs = NULL;
	rc |= set(o, "bit_holes", bhs);
	bhs = NULL;
	rc |= set(o, "padding", uint_j(s->padding));
	rc |= set(o, "bit_padding", uint_j(s->bit_padding));
	rc |= set(o, "summary", sum);
	sum = NULL;
	if (rc)
		goto fail;
	return o;
fail:
	json_decref(o);
	json_decref(ms);
	json_decref(hs);
	json_decref(bhs);
	json_decref(sum);
	return NULL;
}

static int dump(FILE *out, json_t *doc, const struct slt_report_opts *opts,
		struct slt_error *err)
{
	return slt_json_write(out, doc, false, opts && opts->pretty, "JSON",
			      err);
}

int slt_report_layout_json(FILE *out, const struct slt_layout *layout,
			   const struct slt_report_opts *opts,
			   struct slt_error *err)
{
	unsigned cl = cl_of(opts);
	json_t *doc = json_object(), *arr = json_array();
	int rc = 0;

	if (!doc || !arr)
		goto oom;
	for (size_t i = 0; i < layout->n_structs && !rc; i++) {
		json_t *s = struct_j(&layout->structs[i], cl);
		rc |= s ? json_array_append_new(arr, s) : -1;
	}
	rc |= set(doc, "schema", json_string(SLT_SCHEMA_LAYOUT));
	rc |= set(doc, "cacheline_size", uint_j(cl));
	rc |= set(doc, "structs", arr);
	arr = NULL;
	if (rc)
		goto oom;
	return dump(out, doc, opts, err);
oom:
	json_decref(doc);
	json_decref(arr);
	return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory");
}

int slt_report_type_list(FILE *out, const struct slt_type_list *list,
			 bool json, const struct slt_report_opts *opts,
			 struct slt_error *err)
{
	if (!json) {
		for (size_t i = 0; i < list->n_types; i++) {
			const struct slt_type_info *t = &list->types[i];
			fprintf(out, "%llu %s %s\n", (unsigned long long)t->size,
				t->kind == SLT_KIND_UNION ? "union" : "struct",
				t->name);
		}
		if (fflush(out) || ferror(out))
			return slt_error_set(err, SLT_EIO, "", -1,
					     "check the output device or pipe",
					     "writing the type list failed");
		return 0;
	}

	json_t *doc = json_object(), *arr = json_array();
	int rc = 0;

	if (!doc || !arr)
		goto oom;
	for (size_t i = 0; i < list->n_types && !rc; i++) {
		const struct slt_type_info *t = &list->types[i];
		json_t *o = json_object();
		if (!o) {
			rc = -1;
			break;
		}
		rc |= set(o, "name", json_string(t->name));
		rc |= set(o, "kind", json_string(t->kind == SLT_KIND_UNION ? "union" : "struct"));
		rc |= set(o, "size", uint_j(t->size));
		rc |= set(o, "decl_file", json_string(t->decl_file ? t->decl_file : ""));
		rc |= set(o, "decl_line", uint_j(t->decl_line));
		rc |= json_array_append_new(arr, o);
	}
	rc |= set(doc, "schema", json_string("structlint.types/v1"));
	rc |= set(doc, "types", arr);
	arr = NULL;
	if (rc)
		goto oom;
	return dump(out, doc, opts, err);
oom:
	json_decref(doc);
	json_decref(arr);
	return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory");
}
