/* SPDX-License-Identifier: MIT */
/* structlint — `structlint check` text output: gcc-style violation lines
 * and a summary (format: include/structlint/gate.h). */
#include <stdio.h>

#include "structlint/gate.h"

int slt_gate_write_text(FILE *out, const struct slt_gate_result *r,
			const struct slt_gate_write_opts *o,
			struct slt_error *err)
{
	size_t n[4] = { 0 }, suppressed = 0;
	const char *input = o && o->input && o->input[0] ? o->input : "/sys/kernel/btf/vmlinux";
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct slt_violation *v = &r->violations[i];
		if (v->suppressed)
			suppressed++;
		else if (v->severity >= SLT_SEV_NOTE && v->severity <= SLT_SEV_ERROR)
			n[v->severity]++;
		if (v->severity == SLT_SEV_NOTE && o && o->no_notes)
			continue;
		if (v->decl_file && v->decl_file[0])
			fprintf(out, "%s:%u: ", v->decl_file, v->decl_line);
		else
			fprintf(out, "%s: ", input);
		fprintf(out, "%s: struct %s: %s [%s]", slt_severity_name(v->severity),
			v->struct_name ? v->struct_name : "?", v->message ? v->message : "",
			v->rule ? v->rule : "?");
		if (v->suppressed)
			fprintf(out, " (suppressed: %s)", v->suppress_reason ? v->suppress_reason : "");
		fputc('\n', out);
	}
	/* what one violation is, so that the counts can be read */
	if (r->n_violations)
		fprintf(out, "structlint: check: how violations count: a sharing rule gives one per "
			"cacheline it fails on (separate: per pair of groups; no-hot-write-near: "
			"per line of its member), finding-KIND one per line and kind as report "
			"lists them, other rules one per member or struct; the rule is in [] at "
			"the end of each line\n");
	bool hidden = o && o->no_notes && n[SLT_SEV_NOTE];
	size_t fails = slt_gate_failures(r);
	if (o && o->basis)
		fprintf(out, "structlint: check: member accesses %s\n", o->basis);
	fprintf(out, "structlint: check: %zu struct%s, %zu checks: %zu error%s, %zu warning%s, "
		"%zu note%s%s (%zu suppressed): %s\n",
		r->n_structs_checked, r->n_structs_checked == 1 ? "" : "s", r->n_checks,
		n[SLT_SEV_ERROR], n[SLT_SEV_ERROR] == 1 ? "" : "s",
		n[SLT_SEV_WARNING], n[SLT_SEV_WARNING] == 1 ? "" : "s",
		n[SLT_SEV_NOTE], n[SLT_SEV_NOTE] == 1 ? "" : "s", hidden ? " not shown" : "",
		suppressed,
		fails ? "FAILED" : "passed");
	if (fflush(out) || ferror(out))
		return slt_error_set(err, SLT_EIO, "<stdout>", -1, NULL, "cannot write the check report");
	return 0;
}
