/* SPDX-License-Identifier: MIT */
/*
 * slt_gate_write_sarif(): the violations of `structlint check` as a SARIF
 * 2.1.0 log (OASIS Static Analysis Results Interchange Format Version
 * 2.1.0, errata 01; section numbers below are the spec's), so that
 * code-scanning UIs show each violation at the struct's declaration.
 *
 *   sarifLog (3.13): "version": "2.1.0" (3.13.2), "$schema" (3.13.3),
 *     "runs" (3.13.4): one run (3.14) with
 *       "tool" (3.14.6) -> "driver" (3.18.2), a toolComponent (3.19):
 *         "rules" (3.19.23): one reportingDescriptor (3.49)
 *         per rule id used: "id" (3.49.3), "shortDescription" (3.49.9),
 *         "help" (3.49.12), "defaultConfiguration" (3.49.14) "level";
 *       "results" (3.14.23): one result (3.27) per violation:
 *         "ruleId" (3.27.5), "ruleIndex" (3.27.6), "level" (3.27.10:
 *         "error", "warning" or "note"), "message" (3.27.11) "text"
 *         (3.11.8), "locations" (3.27.12): a location (3.28) with a
 *         "physicalLocation" (3.28.3, 3.29): "artifactLocation" (3.29.3,
 *         3.4) "uri" (3.4.3) = the struct's decl file (the layout file
 *         when unknown; see "Locations" below), "region" (3.29.4, 3.30)
 *         "startLine" (3.30.5, >= 1; left out when the line is unknown);
 *         "partialFingerprints" (3.27.17); "suppressions" (3.27.23) with
 *         one suppression (3.35), "kind": "external" (3.35.2),
 *         "justification" (3.35.6) for suppressed violations;
 *         "properties" (3.8) hold structlint's struct, member, offset
 *         and source, and for report --sarif's findings of an instance
 *         whose base is known modulo an alignment only, "bases" ("at
 *         every base" or "only at K of N bases (base mod 64 in {..})").
 *       "originalUriBaseIds" (3.14.14): "%SRCROOT%" -> an artifactLocation
 *         whose "uri" is the source root's absolute file:// URI, ending
 *         in '/' (3.14.14: absolute, no uriBaseId), or only a
 *         "description" when the root is a relative prefix and the
 *         current directory is unknown; present when a result uses it.
 *
 * Locations: a decl file under the source root (--source-root DIR, else
 * the current directory) becomes a uri relative to it with "uriBaseId":
 * "%SRCROOT%" (3.4.4); another absolute path a "file://" URI (3.4.3); a
 * relative path (kernel DWARF: include/linux/tcp.h, or Debian's
 * debian/build/build_amd64_none_cloud-amd64/include/linux/tcp.h) stays a
 * relative reference, unless it starts with a relative DIR, which is then
 * stripped.  Bytes outside RFC 3986's unreserved, sub-delims, ':', '@'
 * and '/' are percent-encoded.
 *
 * partialFingerprints: "structlintViolation/v1" = FNV-1a 64 (16 hex
 * digits) of "rule\0struct\0member", then ':' and the occurrence of that
 * triple in the log (1, 2, ...): stable across builds whose violations
 * keep their order, and distinct for results on the same line.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/json_out.h"
#include "structlint/gate.h"

#define SARIF_SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

static const struct {
	const char *id, *help;
} rule_help[] = {
	{ "separate", "Rules file `separate = G1 G2...`: the listed member groups must never share a cacheline (e.g. read-mostly members apart from hot-written ones)." },
	{ "max-lines", "Rules file `max-lines GROUP = N`: the group's members span at most N cachelines (the kernel's CACHELINE_ASSERT_GROUP_SIZE, in lines)." },
	{ "first", "Rules file `first = MEMBER`: MEMBER is the struct's first member, at offset 0." },
	{ "offset", "Rules file `offset MEMBER = N`: MEMBER sits at byte offset N." },
	{ "max-size", "Rules file `max-size = N`: sizeof(struct) is at most N bytes." },
	{ "max-cachelines", "Rules file `max-cachelines = N`: the struct spans at most N cachelines." },
	{ "max-holes", "Rules file `max-holes = N`: the struct's holes sum to at most N bytes." },
	{ "cacheline-start", "Rules file `cacheline-start = MEMBER`: MEMBER's offset is a multiple of the cacheline size." },
	{ "no-hot-write-near", "Rules file `no-hot-write-near = MEMBER`: no hot-written member (per --classes or --samples) shares a cacheline with MEMBER." },
	{ "cacheline-group", "A kernel cacheline group (__cacheline_group_begin__NAME .. __cacheline_group_end__NAME): its bytes, cachelines and class; informational." },
	{ "cacheline-group-markers", "A __cacheline_group_begin__/end__ marker without its partner: the kernel's CACHELINE_ASSERT_GROUP_MEMBER cannot hold for that group." },
	{ "cacheline-group-sharing", "A read-mostly kernel cacheline group shares a cacheline with a written group: every write invalidates the readers' copy (false sharing)." },
	{ "cacheline-group-member", "A member's class (--classes, e.g. a net_cachelines table) says it belongs in a read-mostly or written cacheline group, but it lies elsewhere (the kernel's CACHELINE_ASSERT_GROUP_MEMBER)." },
	{ "writers-share-line", "Members written by different writers (classes hot-write:LABEL with different labels) share a cacheline: each writer's stores take the line from the others (write-write false sharing)." },
	{ "unseen-writer", "check --samples with a profile that holds no store (loads-only events): loads that hit a modified line (HITM) show the cacheline is written, by a writer the profile cannot show, so the rules that look for written members cannot hold there." },
	{ "baseline-struct-missing", "A struct recorded in the baseline is not in the checked file." },
	{ "baseline-no-classes", "Neither the baseline nor --classes gives any member of the struct a class: only size, holes, moves and missing members are compared." },
	{ "baseline-lines-grew", "The struct spans more cachelines than in the baseline." },
	{ "baseline-size-grew", "The struct grew within the same number of cachelines." },
	{ "baseline-hole-new", "A new hole, or a bigger one, compared with the baseline." },
	{ "baseline-member-moved-line", "A classed member now occupies other cachelines than in the baseline (a warning: the harm, a new sharing or growth, is reported as an error of its own)." },
	{ "baseline-member-moved", "A member has a new offset on the same cachelines." },
	{ "baseline-hot-shares-read-mostly", "A cacheline now holds written and read-mostly members that did not share a line in the baseline (false sharing)." },
	{ "baseline-writers-share-line", "A cacheline now holds members written by different writers (hot-write:LABEL) that did not share a line in the baseline (write-write false sharing)." },
	{ "baseline-member-removed", "A member of the baseline is gone." },
	{ "baseline-member-renamed", "A member has a new name at the same offset, size and type." },
	{ "baseline-member-type-changed", "A member has another type than in the baseline." },
	{ "baseline-member-added", "A member the baseline lacks (an error when its class is unknown and it lands beside a read-mostly member)." },
};

bool slt_gate_rule_known(const char *pattern)
{
	for (size_t i = 0; pattern && i < sizeof(rule_help) / sizeof(rule_help[0]); i++)
		if (fnmatch(pattern, rule_help[i].id, 0) == 0)
			return true;
	return false;
}

const char *slt_gate_rule_help(const char *rule)
{
	for (size_t i = 0; rule && i < sizeof(rule_help) / sizeof(rule_help[0]); i++)
		if (!strcmp(rule_help[i].id, rule))
			return rule_help[i].help;
	if (rule && !strncmp(rule, "finding-", 8))
		return "A sharing finding of structlint report (collision, write-write, true-sharing, element-sharing, straddle, adjacent, unseen-writer); see structlint(1), CLASSES AND FINDINGS.";
	if (rule && !strncmp(rule, "baseline-", 9))
		return "A difference from the recorded baseline layout (structlint baseline); see structlint(1), BASELINE.";
	return "A structlint layout check; see structlint(1), CHECK.";
}

/* p without leading "./" (any number) */
static const char *skip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	return p;
}

/* Append path to f percent-encoded (RFC 3986 path characters kept). */
static void put_encoded(FILE *f, const char *path)
{
	static const char keep[] = "-._~!$&'()*+,;=:@/";
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr(keep, *c))
			fputc(*c, f);
		else
			fprintf(f, "%%%02X", *c);
	}
}

/* The source root, as a prefix of absolute paths (abs, no trailing '/';
 * "" for "/") and of relative ones (rel, or NULL). */
struct root {
	char *abs;    /* malloc()ed or NULL: no absolute root known */
	char *rel;    /* malloc()ed or NULL */
};

static char *trimmed(const char *d)
{
	d = skip_dot(d);
	size_t n = strlen(d);
	while (n > 0 && d[n - 1] == '/')
		n--;
	if (n == 1 && d[0] == '.')
		n = 0;
	char *r = malloc(n + 1);
	if (r) {
		memcpy(r, d, n);
		r[n] = 0;
	}
	return r;
}

static int root_init(struct root *rt, const struct slt_gate_write_opts *o)
{
	const char *dir = o && o->source_root ? o->source_root : NULL;
	const char *cwd = o && o->cwd && o->cwd[0] == '/' ? o->cwd : NULL;
	rt->abs = rt->rel = NULL;
	if (!dir) {
		if (cwd && !(rt->abs = trimmed(cwd)))
			return -1;
		return 0;
	}
	if (dir[0] == '/')
		return (rt->abs = trimmed(dir)) ? 0 : -1;
	if (!(rt->rel = trimmed(dir)))
		return -1;
	if (cwd) {
		char *c = trimmed(cwd);
		size_t n = c ? strlen(c) + strlen(rt->rel) + 2 : 0;
		rt->abs = c ? malloc(n) : NULL;
		if (rt->abs)
			snprintf(rt->abs, n, "%s%s%s", c, rt->rel[0] ? "/" : "", rt->rel);
		/* the joined directory only when it exists: else DIR is a
		 * prefix of the decl paths only (Debian's debian/build/... is
		 * not on the CI machine) and the files are under the cwd */
		struct stat st;
		if (rt->abs && (stat(rt->abs[0] ? rt->abs : "/", &st) || !S_ISDIR(st.st_mode))) {
			free(rt->abs);
			rt->abs = c;
			c = NULL;
		}
		free(c);
		if (!rt->abs)
			return -1;
	}
	return 0;
}

/* The rest of path after prefix and a '/', or NULL when path is not
 * under prefix. */
static const char *under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	if (!n)
		return path[0] == '/' ? path + 1 : path;
	return !strncmp(path, prefix, n) && path[n] == '/' ? path + n + 1 : NULL;
}

/* artifactLocation (3.4) of path; *based set when it uses %SRCROOT%. */
static json_t *artifact_location(const char *path, const struct root *rt, bool *based)
{
	const char *p = skip_dot(path), *rel = NULL;
	if (p[0] == '/' && rt->abs)
		rel = under(p, rt->abs);
	else if (p[0] != '/' && rt->rel)
		rel = under(p, rt->rel);
	char *uri = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&uri, &len);
	if (!f)
		return NULL;
	if (!rel && p[0] == '/')
		fputs("file://", f);
	put_encoded(f, rel ? rel : p);
	if (fclose(f)) {
		free(uri);
		return NULL;
	}
	/* a relative reference is resolved against %SRCROOT% too (3.4.4:
	 * a relative uri SHOULD have a uriBaseId) */
	bool base = rel || p[0] != '/';
	json_t *loc = base ? json_pack("{s:s,s:s}", "uri", uri, "uriBaseId", "%SRCROOT%") :
			     json_pack("{s:s}", "uri", uri);
	free(uri);
	*based |= base;
	return loc;
}

/* run.originalUriBaseIds (3.14.14). */
static json_t *base_ids(const struct root *rt)
{
	if (!rt->abs)
		return json_pack("{s:{s:{s:s}}}", "%SRCROOT%", "description", "text",
				 "the --source-root prefix of the decl files' paths");
	char *uri = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&uri, &len);
	if (!f)
		return NULL;
	fputs("file://", f);
	put_encoded(f, rt->abs[0] ? rt->abs : "");
	fputc('/', f);
	if (fclose(f)) {
		free(uri);
		return NULL;
	}
	json_t *ids = json_pack("{s:{s:s}}", "%SRCROOT%", "uri", uri);
	free(uri);
	return ids;
}

/* 64-bit FNV-1a of s and its terminating NUL, continuing from h. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++);
	return h;
}

/* partialFingerprints (3.27.17) of v; seen counts each hash's uses. */
static json_t *fingerprints(const struct slt_violation *v, json_t *seen, bool *bad)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	h = fnv1a(h, v->rule ? v->rule : "");
	h = fnv1a(h, v->struct_name ? v->struct_name : "");
	h = fnv1a(h, v->member ? v->member : "");
	char key[17], fp[48];
	snprintf(key, sizeof(key), "%016" PRIx64, h);
	json_int_t n = json_integer_value(json_object_get(seen, key)) + 1;
	slt_json_set(seen, key, json_integer(n), bad);
	snprintf(fp, sizeof(fp), "%s:%" JSON_INTEGER_FORMAT, key, n);
	return json_pack("{s:s}", "structlintViolation/v1", fp);
}

int slt_gate_write_sarif(FILE *out, const struct slt_gate_result *r,
			 const struct slt_gate_write_opts *o,
			 struct slt_error *err)
{
	bool bad = false, based = false;
	const char *input = o && o->input && o->input[0] ? o->input : "/sys/kernel/btf/vmlinux";
	struct root rt;
	json_t *doc = json_object(), *run = json_object(), *tool = json_object(),
	       *driver = json_object(), *rules = json_array(), *results = json_array(),
	       *ids = json_object(), *seen = json_object();
	if (root_init(&rt, o) || !doc || !run || !tool || !driver || !rules || !results || !ids ||
	    !seen) {
		json_decref(doc); json_decref(run); json_decref(tool); json_decref(driver);
		json_decref(rules); json_decref(results); json_decref(ids); json_decref(seen);
		free(rt.abs);
		free(rt.rel);
		return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory building the SARIF log");
	}
	for (size_t i = 0; !bad && i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		if (v->severity == SLT_SEV_NOTE && !(o && o->notes))
			continue;
		const char *id = v->rule ? v->rule : "structlint";
		json_t *idx = json_object_get(ids, id);
		if (!idx) {
			idx = json_integer((json_int_t)json_array_size(rules));
			slt_json_set(ids, id, idx, &bad);
			json_t *d = json_pack("{s:s,s:{s:s},s:{s:s},s:{s:s}}", "id", id,
					      "shortDescription", "text", slt_gate_rule_help(id),
					      "help", "text", slt_gate_rule_help(id),
					      "defaultConfiguration", "level",
					      slt_severity_name(v->severity));
			slt_json_push(rules, d, &bad);
			if (bad)
				break;
		}
		json_t *res = json_object(), *phys = json_object(), *props = json_object();
		const char *file = v->decl_file && v->decl_file[0] ? v->decl_file : input;
		slt_json_set(phys, "artifactLocation", artifact_location(file, &rt, &based), &bad);
		if (v->decl_file && v->decl_file[0] && v->decl_line > 0)
			slt_json_set(phys, "region", json_pack("{s:I}", "startLine",
							       (json_int_t)v->decl_line), &bad);
		slt_json_set(res, "ruleId", json_string(id), &bad);
		slt_json_set(res, "ruleIndex", json_integer(json_integer_value(idx)), &bad);
		slt_json_set(res, "level", json_string(slt_severity_name(v->severity)), &bad);
		json_t *text = json_sprintf("struct %s: %s", v->struct_name ? v->struct_name : "?",
					    v->message ? v->message : "");
		slt_json_set(res, "message", text ? json_pack("{s:o}", "text", text) : NULL, &bad);
		json_t *locs = json_array();
		slt_json_push(locs, phys ? json_pack("{s:O}", "physicalLocation", phys) : NULL, &bad);
		json_decref(phys);
		slt_json_set(res, "locations", locs, &bad);
		slt_json_set(res, "partialFingerprints", fingerprints(v, seen, &bad), &bad);
		if (v->suppressed)
			slt_json_set(res, "suppressions",
				     json_pack("[{s:s,s:s}]", "kind", "external", "justification",
					       v->suppress_reason ? v->suppress_reason : ""), &bad);
		slt_json_set(props, "struct", json_string(v->struct_name ? v->struct_name : ""), &bad);
		if (v->member)
			slt_json_set(props, "member", json_string(v->member), &bad);
		if (v->offset != SLT_NO_OFFSET)
			slt_json_set(props, "offset", json_integer((json_int_t)v->offset), &bad);
		if (v->source)
			slt_json_set(props, "source", json_string(v->source), &bad);
		if (v->bases)
			slt_json_set(props, "bases", json_string(v->bases), &bad);
		slt_json_set(res, "properties", props, &bad);
		slt_json_push(results, res, &bad);
	}
	json_decref(ids);
	json_decref(seen);
	if (based)
		slt_json_set(run, "originalUriBaseIds", base_ids(&rt), &bad);
	free(rt.abs);
	free(rt.rel);
	slt_json_set(driver, "name", json_string("structlint"), &bad);
	slt_json_set(driver, "version", json_string(o && o->version ? o->version : "unknown"), &bad);
	slt_json_set(driver, "rules", rules, &bad);
	slt_json_set(tool, "driver", driver, &bad);
	slt_json_set(run, "tool", tool, &bad);
	slt_json_set(run, "results", results, &bad);
	/* not measured: where the classes or accesses come from (3.8 property bag) */
	if (o && o->basis)
		slt_json_set(run, "properties", json_pack("{s:s}", "basis", o->basis), &bad);
	json_t *runs = json_array();
	slt_json_push(runs, run, &bad);
	slt_json_set(doc, "$schema", json_string(SARIF_SCHEMA), &bad);
	slt_json_set(doc, "version", json_string("2.1.0"), &bad);
	slt_json_set(doc, "runs", runs, &bad);
	return slt_json_write(out, doc, bad, o && o->pretty, "the SARIF log", err);
}

int slt_gate_write_sarif_failure(FILE *out, const struct slt_error *failure,
				 const struct slt_gate_write_opts *o, struct slt_error *err)
{
	bool bad = false, based = false;
	struct root rt;
	if (root_init(&rt, o))
		return slt_error_set(err, SLT_ENOMEM, "", -1, NULL, "out of memory building the SARIF log");
	/* the message without the "column N: " the readers put in front */
	unsigned col = 0;
	int used = 0;
	const char *msg = failure->message;
	if (sscanf(msg, "column %u: %n", &col, &used) == 1 && used > 0)
		msg += used;
	else
		col = 0;
	json_t *text = json_sprintf("%s%s%s%s", msg, failure->hint[0] ? " (" : "", failure->hint,
				    failure->hint[0] ? ")" : "");
	json_t *note = json_object();
	slt_json_set(note, "level", json_string("error"), &bad);
	slt_json_set(note, "message", text ? json_pack("{s:o}", "text", text) : NULL, &bad);
	if (failure->file[0]) {
		json_t *phys = json_object();
		slt_json_set(phys, "artifactLocation", artifact_location(failure->file, &rt, &based),
			     &bad);
		if (failure->line)
			slt_json_set(phys, "region", col ?
				     json_pack("{s:I,s:I}", "startLine", (json_int_t)failure->line,
					       "startColumn", (json_int_t)col) :
				     json_pack("{s:I}", "startLine", (json_int_t)failure->line), &bad);
		slt_json_set(note, "locations", phys ? json_pack("[{s:o}]", "physicalLocation", phys) :
			     NULL, &bad);
	}
	json_t *run = json_object();
	slt_json_set(run, "tool", json_pack("{s:{s:s,s:s,s:[]}}", "driver", "name", "structlint",
					     "version", o && o->version ? o->version : "unknown",
					     "rules"), &bad);
	slt_json_set(run, "invocations",
		     json_pack("[{s:b,s:i,s:[o]}]", "executionSuccessful", 0, "exitCode", 2,
			       "toolExecutionNotifications", note), &bad);
	if (based)
		slt_json_set(run, "originalUriBaseIds", base_ids(&rt), &bad);
	free(rt.abs);
	free(rt.rel);
	slt_json_set(run, "results", json_array(), &bad);
	json_t *doc = json_object();
	slt_json_set(doc, "$schema", json_string(SARIF_SCHEMA), &bad);
	slt_json_set(doc, "version", json_string("2.1.0"), &bad);
	slt_json_set(doc, "runs", json_pack("[o]", run), &bad);
	return slt_json_write(out, doc, bad, o && o->pretty, "the SARIF log", err);
}
