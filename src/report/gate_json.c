/* SPDX-License-Identifier: MIT */
/*
 * slt_gate_write_json(): schema "structlint.check/v1".
 *
 * {
 *   "schema": "structlint.check/v1",
 *   "input": FILE ("" for the running kernel's BTF),
 *   "basis": TEXT (only when the member classes come from estimates:
 *            "estimated from IP samples x static sites (...)"),
 *   "structs_checked": N, "checks": N,
 *   "errors": N, "warnings": N, "notes": N (not suppressed),
 *   "suppressed": N, "failed": bool (errors > 0: exit status 1),
 *   "violations": [ {                          (in the order found)
 *     "rule": ID, "severity": "error" | "warning" | "note",
 *     "struct": NAME, "member": PATH (absent for the whole struct),
 *     "message": TEXT,
 *     "decl_file": FILE ("" when unknown), "decl_line": N (0 unknown),
 *     "offset": BYTES (absent when not about one member),
 *     "source": "RULES:LINE" | "kernel markers" | BASELINE (absent when
 *               none),
 *     "suppressed": bool, "suppress_reason": TEXT (only when suppressed)
 *   } ]
 * }
 * Any change that drops or renames a key bumps the version.
 */
#include <jansson.h>
#include <stdio.h>

#include "report/json_out.h"
#include "structlint/gate.h"

#define U(v) json_integer((json_int_t)(v))

int slt_gate_write_json(FILE *out, const struct slt_gate_result *r,
			const struct slt_gate_write_opts *o,
			struct slt_error *err)
{
	bool bad = false;
	size_t n[4] = { 0 }, suppressed = 0;
	json_t *doc = json_object(), *vs = json_array();
	if (!doc || !vs)
		bad = true;
	for (size_t i = 0; !bad && i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		json_t *j = json_object();
		slt_json_set(j, "rule", json_string(v->rule ? v->rule : ""), &bad);
		slt_json_set(j, "severity", json_string(slt_severity_name(v->severity)), &bad);
		slt_json_set(j, "struct", json_string(v->struct_name ? v->struct_name : ""), &bad);
		if (v->member)
			slt_json_set(j, "member", json_string(v->member), &bad);
		slt_json_set(j, "message", json_string(v->message ? v->message : ""), &bad);
		slt_json_set(j, "decl_file", json_string(v->decl_file ? v->decl_file : ""), &bad);
		slt_json_set(j, "decl_line", U(v->decl_line), &bad);
		if (v->offset != SLT_NO_OFFSET)
			slt_json_set(j, "offset", U(v->offset), &bad);
		if (v->source)
			slt_json_set(j, "source", json_string(v->source), &bad);
		slt_json_set(j, "suppressed", json_boolean(v->suppressed), &bad);
		if (v->suppressed)
			slt_json_set(j, "suppress_reason",
				     json_string(v->suppress_reason ? v->suppress_reason : ""), &bad);
		slt_json_push(vs, j, &bad);
		if (v->suppressed)
			suppressed++;
		else if (v->severity >= SLT_SEV_NOTE && v->severity <= SLT_SEV_ERROR)
			n[v->severity]++;
	}
	if (doc) {
		slt_json_set(doc, "schema", json_string(SLT_SCHEMA_CHECK), &bad);
		slt_json_set(doc, "input", json_string(o && o->input ? o->input : ""), &bad);
		if (o && o->basis)
			slt_json_set(doc, "basis", json_string(o->basis), &bad);
		slt_json_set(doc, "structs_checked", U(r->n_structs_checked), &bad);
		slt_json_set(doc, "checks", U(r->n_checks), &bad);
		slt_json_set(doc, "errors", U(n[SLT_SEV_ERROR]), &bad);
		slt_json_set(doc, "warnings", U(n[SLT_SEV_WARNING]), &bad);
		slt_json_set(doc, "notes", U(n[SLT_SEV_NOTE]), &bad);
		slt_json_set(doc, "suppressed", U(suppressed), &bad);
		slt_json_set(doc, "failed", json_boolean(slt_gate_failures(r) > 0), &bad);
		slt_json_set(doc, "violations", vs, &bad);
	} else {
		json_decref(vs);
	}
	return slt_json_write(out, doc, bad, o && o->pretty, "the check report", err);
}
