/* SPDX-License-Identifier: MIT */
/*
 * Writers of `structlint access`: the pahole layout annotated with static
 * site counts, and the structlint.access/v1 JSON document.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "join/join_int.h"
#include "report/annotate.h"
#include "report/json_out.h"
#include "structlint/access.h"

static bool any_site(const struct slt_access_member *m)
{
	return m->loads || m->stores || m->rmw || m->addr_taken || m->call_loads ||
	       m->call_stores || m->call_rmw;
}

static bool has_sites(const void *ctx, size_t i)
{
	const struct slt_access_summary *s = ctx;
	return any_site(&s->members[i]);
}

static void put_counts(FILE *f, const struct slt_access_member *m)
{
	char buf[256];
	fputs(slt_access_member_text(m, buf, sizeof(buf)), f);
}

static void note(FILE *f, const void *ctx, size_t i)
{
	const struct slt_access_summary *s = ctx;
	fputs("/* ", f);
	put_counts(f, &s->members[i]);
	fputs(" */", f);
}

static double share(uint64_t ok, uint64_t all)
{
	return all ? 100.0 * (double)ok / (double)all : 0.0;
}

/* The resolved figures (include/structlint/access.h, "Coverage"): a
 * struct member, a typed stack datum or variable, over every memory operand and over
 * those that are not untyped stack operations. */
static void resolved_text(FILE *f, uint64_t mem, const uint64_t *r)
{
	uint64_t ok = slt_access_resolved(r);
	fprintf(f, "%.1f%% resolved to a type (%.1f%% leaving out "
		   "the %" PRIu64 " untyped stack operations)",
		share(ok, mem), share(ok, mem - r[SLT_AR_STACK]), r[SLT_AR_STACK]);
}

static void reasons_text(FILE *f, const uint64_t *r)
{
	bool first = true;
	for (int k = 1; k < SLT_AR_N; k++) {
		if (!r[k])
			continue;
		fprintf(f, "%s%s %" PRIu64, first ? "" : ", ",
			slt_access_reason_name(k), r[k]);
		first = false;
	}
	if (first)
		fputs("none", f);
}

/* The reasons as a table, in the JSON's order: count, share of mem,
 * meaning. */
static void reasons_table(FILE *f, uint64_t mem, const uint64_t *r)
{
	fputs("/* not attributed, by reason (share of those memory operands):\n", f);
	for (int k = 1; k < SLT_AR_N; k++)
		if (r[k])
			fprintf(f, " *   %-15s %9" PRIu64 " %5.1f%%  %s\n",
				slt_access_reason_name(k), r[k], share(r[k], mem),
				slt_access_reason_help(k));
	fputs(" */\n", f);
}

static const char *member_name(const struct slt_struct *st, long m, char *buf,
			       size_t size)
{
	if (m < 0)
		return "(hole/padding)";
	slt_member_path(st, (size_t)m, buf, size);
	return buf[0] ? buf : "(anonymous)";
}

static void sites_text(FILE *f, struct slt_access_map *map,
		       const struct slt_access_summary *s)
{
	fprintf(f, "/* %zu site%s: member, kind, width, function, source, "
		   "instruction */\n", s->n_sites, s->n_sites == 1 ? "" : "s");
	for (size_t i = 0; i < s->n_sites; i++) {
		const struct slt_access_site *site = &map->sites[s->sites[i]];
		char path[512], insn[160];
		const char *file;
		uint32_t line;
		slt_access_site_source(map, site, &file, &line);
		const char *base = strrchr(file, '/');
		fprintf(f, "  %-24s %-10s %2" PRIu32 "  %s+0x%" PRIx64 "  %s:%" PRIu32
			"  %s%s\n",
			member_name(s->layout, s->site_member[i], path, sizeof(path)),
			slt_access_kind_name(site->kind), site->width,
			map->funcs[site->func].name,
			site->pc - map->funcs[site->func].low_pc,
			base ? base + 1 : file[0] ? file : "?", line,
			slt_access_site_insn(map, site, insn, sizeof(insn)),
			site->via == SLT_VIA_TRACKED ? "  [tracked]" :
			site->via == SLT_VIA_CALL ? "  [call]" : "");
	}
}

int slt_report_access_text(FILE *out, struct slt_access_map *map,
			   struct slt_access_summary *const *sums, size_t n,
			   const struct slt_report_opts *ropts,
			   const struct slt_access_write_opts *opts,
			   struct slt_error *err)
{
	for (size_t k = 0; k < n; k++) {
		const struct slt_access_summary *s = sums[k];
		if (k)
			fputc('\n', out);
		int rc = slt_report_layout_notes(out, s->layout, ropts, has_sites,
						 note, s, err);
		if (rc)
			return rc;
		if (any_site(&s->outside)) {
			fputs("/* in holes or padding: ", out);
			put_counts(out, &s->outside);
			fputs(" */\n", out);
		}
		uint64_t ok = s->reasons[SLT_AR_OK];
		fprintf(out, "/* structlint access: %zu static site%s in %" PRIu32
			" function%s; those functions' memory operands: %" PRIu64
			", %.1f%% attributed to a struct, ",
			s->n_sites, s->n_sites == 1 ? "" : "s", s->n_funcs,
			s->n_funcs == 1 ? "" : "s", s->n_mem, share(ok, s->n_mem));
		resolved_text(out, s->n_mem, s->reasons);
		fputs(" (unattributed: ", out);
		reasons_text(out, s->reasons);
		fputs(") */\n", out);
		if (s->n_mem > s->reasons[SLT_AR_OK])
			reasons_table(out, s->n_mem, s->reasons);
		if (opts && opts->sites)
			sites_text(out, map, s);
	}
	fprintf(out, "/* whole file: %zu functions, %" PRIu64 " instructions, %"
		PRIu64 " memory operands, %.1f%% attributed, ",
		map->n_funcs, map->n_insns, map->n_mem,
		share(map->reasons[SLT_AR_OK], map->n_mem));
	resolved_text(out, map->n_mem, map->reasons);
	fputs(" (unattributed: ", out);
	reasons_text(out, map->reasons);
	fprintf(out, ")%s */\n", map->n_undecodable ? "; some bytes undecodable" : "");
	if (ferror(out))
		return slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "write failed");
	return 0;
}

static json_t *reasons_json(const uint64_t *r, bool *bad)
{
	json_t *o = json_object();
	for (int k = 1; k < SLT_AR_N; k++)
		slt_json_set(o, slt_access_reason_name(k), json_integer((json_int_t)r[k]), bad);
	return o;
}

static json_t *coverage_json(uint32_t funcs, uint64_t mem, const uint64_t *r,
			     bool *bad)
{
	json_t *o = json_object();
	slt_json_set(o, "functions", json_integer(funcs), bad);
	slt_json_set(o, "memory_operands", json_integer((json_int_t)mem), bad);
	slt_json_set(o, "attributed", json_integer((json_int_t)r[SLT_AR_OK]), bad);
	slt_json_set(o, "share", json_real(mem ? (double)r[SLT_AR_OK] / (double)mem : 0), bad);
	/* added after v1: see include/structlint/access.h, "Coverage" */
	uint64_t res = slt_access_resolved(r);
	uint64_t typed = mem - r[SLT_AR_STACK];
	slt_json_set(o, "resolved", json_integer((json_int_t)res), bad);
	slt_json_set(o, "resolved_share", json_real(mem ? (double)res / (double)mem : 0), bad);
	slt_json_set(o, "resolved_share_without_stack_operations",
		     json_real(typed ? (double)res / (double)typed : 0), bad);
	slt_json_set(o, "unattributed", reasons_json(r, bad), bad);
	return o;
}

static void counts_json(json_t *o, const struct slt_access_member *m, bool *bad)
{
	slt_json_set(o, "loads", json_integer((json_int_t)m->loads), bad);
	slt_json_set(o, "stores", json_integer((json_int_t)m->stores), bad);
	slt_json_set(o, "rmw", json_integer((json_int_t)m->rmw), bad);
	slt_json_set(o, "address_taken", json_integer((json_int_t)m->addr_taken), bad);
	slt_json_set(o, "functions", json_integer(m->n_funcs), bad);
	/* added after v1: the call-derived sites, apart (the counts above
	 * are direct sites) */
	json_t *c = json_object();
	slt_json_set(c, "loads", json_integer((json_int_t)m->call_loads), bad);
	slt_json_set(c, "stores", json_integer((json_int_t)m->call_stores), bad);
	slt_json_set(c, "rmw", json_integer((json_int_t)m->call_rmw), bad);
	slt_json_set(c, "functions", json_integer(m->n_call_funcs), bad);
	slt_json_set(o, "calls", c, bad);
}

static json_t *struct_json(struct slt_access_map *map,
			   const struct slt_access_summary *s, bool sites,
			   bool *bad)
{
	const struct slt_struct *st = s->layout;
	json_t *o = json_object(), *members = json_array();
	slt_json_set(o, "name", json_string(st->name), bad);
	slt_json_set(o, "size", json_integer((json_int_t)st->size), bad);
	for (size_t i = 0; i < st->n_members; i++) {
		char path[512];
		json_t *m = json_object();
		slt_json_set(m, "path", json_string(slt_member_path(st, i, path, sizeof(path))), bad);
		slt_json_set(m, "offset", json_integer((json_int_t)st->members[i].offset), bad);
		slt_json_set(m, "size", json_integer((json_int_t)st->members[i].size), bad);
		slt_json_set(m, "depth", json_integer(st->members[i].depth), bad);
		counts_json(m, &s->members[i], bad);
		slt_json_push(members, m, bad);
	}
	slt_json_set(o, "members", members, bad);
	json_t *outside = json_object();
	counts_json(outside, &s->outside, bad);
	slt_json_set(o, "outside", outside, bad);
	slt_json_set(o, "coverage", coverage_json(s->n_funcs, s->n_mem, s->reasons, bad), bad);
	if (!sites)
		return o;
	json_t *arr = json_array();
	for (size_t i = 0; i < s->n_sites; i++) {
		const struct slt_access_site *site = &map->sites[s->sites[i]];
		char path[512], insn[160];
		const char *file;
		uint32_t line;
		json_t *j = json_object();
		slt_json_set(j, "pc", slt_json_hex(site->pc), bad);
		slt_json_set(j, "function", json_string(map->funcs[site->func].name), bad);
		slt_json_set(j, "member", s->site_member[i] < 0 ? json_null()
			     : json_string(slt_member_path(st, (size_t)s->site_member[i],
							   path, sizeof(path))), bad);
		slt_json_set(j, "offset", json_integer(site->offset), bad);
		slt_json_set(j, "width", json_integer(site->width), bad);
		slt_json_set(j, "kind", json_string(slt_access_kind_name(site->kind)), bad);
		slt_json_set(j, "via", json_string(site->via == SLT_VIA_TRACKED ? "tracked" :
						       site->via == SLT_VIA_CALL ? "call" : "dwarf"), bad);
		if (!slt_access_site_source(map, site, &file, &line)) {
			slt_json_set(j, "file", json_string(file), bad);
			slt_json_set(j, "line", json_integer(line), bad);
		} else {
			slt_json_set(j, "file", json_null(), bad);
			slt_json_set(j, "line", json_null(), bad);
		}
		slt_json_set(j, "insn", json_string(slt_access_site_insn(map, site, insn, sizeof(insn))), bad);
		slt_json_push(arr, j, bad);
	}
	slt_json_set(o, "sites", arr, bad);
	return o;
}

int slt_report_access_json(FILE *out, struct slt_access_map *map,
			   struct slt_access_summary *const *sums, size_t n,
			   const struct slt_access_write_opts *opts,
			   struct slt_error *err)
{
	bool bad = false;
	json_t *doc = json_object(), *arr = json_array();
	slt_json_set(doc, "schema", json_string(SLT_SCHEMA_ACCESS), &bad);
	slt_json_set(doc, "file", json_string(map->path), &bad);
	json_t *whole = coverage_json((uint32_t)map->n_funcs, map->n_mem, map->reasons, &bad);
	slt_json_set(whole, "instructions", json_integer((json_int_t)map->n_insns), &bad);
	slt_json_set(whole, "undecodable_bytes", json_integer((json_int_t)map->n_undecodable), &bad);
	slt_json_set(doc, "binary", whole, &bad);
	for (size_t k = 0; k < n; k++)
		slt_json_push(arr, struct_json(map, sums[k], opts && opts->sites, &bad), &bad);
	slt_json_set(doc, "structs", arr, &bad);
	return slt_json_write(out, doc, bad, opts && opts->pretty, "the access JSON", err);
}
