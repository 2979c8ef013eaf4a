/* SPDX-License-Identifier: MIT */
/*
 * `structlint check [OPTIONS] [FILE] [STRUCT...] --rules RULES |
 * --baseline B`: the CI layout gate.  The structs named by the rules
 * file's sections (and by STRUCT operands) are loaded once, checked
 * against their rules (src/gate/check.c) and the kernel's cacheline-group
 * markers (src/gate/groups.c); a baseline is compared by
 * slt_baseline_compare_file() (include/structlint/baseline.h).  Member
 * classes come from --classes (a classes file or net_cachelines table) or
 * --samples (measured: report's loading and analysis, analysis_args.c).
 * Output: gcc-style text, structlint.check/v1 JSON or SARIF 2.1.0.
 * Exit 0 when everything holds, 1 on unsuppressed errors, 2 on usage or
 * input errors.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/analysis_args.h"
#include "cli/static_classes.h"
#include "common/strmap.h"
#include "join/join_int.h"
#include "cli/cli.h"
#include "structlint/baseline.h"
#include "structlint/gate.h"
#include "structlint/weight.h"
#include "structlint/rules.h"

#ifndef STRUCTLINT_VERSION
#define STRUCTLINT_VERSION "0.1.0"
#endif

static const char usage[] =
"usage: structlint check [OPTIONS] [FILE] [STRUCT...] --rules RULES\n"
"       structlint check [OPTIONS] [FILE] [STRUCT...] --baseline BASELINE.json\n"
"       structlint check [OPTIONS] [FILE] STRUCT... {--samples FILE | --classes FILE}\n"
"\n"
"Check struct layouts in CI: the rules of RULES for each struct it names,\n"
"the kernel's __cacheline_group_begin__/end__ groups of every struct\n"
"checked (always, when the struct has them), and the differences from a\n"
"baseline recorded by `structlint baseline`.  FILE is an ELF file with\n"
"DWARF or BTF, or raw BTF (default: the running kernel's BTF).  STRUCT\n"
"operands add structs to check for their kernel cacheline groups (with\n"
"either form; the rules' and the baseline's structs are checked anyway).\n"
"Without --rules, what `structlint report` finds for the STRUCT operands\n"
"is gated: each finding is an error, rule finding-KIND (with --rules, only\n"
"the rules are; add no rules file, or run report --fail-on-findings).\n"
"Class rules (no-hot-write-near, separate of class: groups,\n"
"writers-share-line, baseline-hot-shares-read-mostly) are layout hygiene\n"
"from the classes: with a per-CPU --samples profile, one on a line where\n"
"report finds no false sharing (one CPU does everything) is a note.\n"
"A sharing rule counts one violation per cacheline it fails on.\n"
"\n"
"gate inputs:\n"
"  -r, --rules FILE           rules file (structlint(1), RULES FILES)\n"
"  -b, --baseline FILE        compare with a structlint.baseline/v1 file\n"
"      --suppress FILE        structlint.suppressions/v1 file: matching\n"
"                             violations are listed, never fail the gate\n"
"member classes (for no-hot-write-near, class:CLASS groups, kernel group\n"
"membership, and writer labels: members of different hot-write:LABEL on\n"
"one cacheline are an error, writers-share-line):\n"
"  -C, --classes FILE         classes file or net_cachelines .rst table;\n"
"                             repeatable: the files are merged (a member\n"
"                             classed differently by two files is an error)\n"
"                             'static': the classes the static access map\n"
"                             of FILE proposes (structlint(1), STATIC\n"
"                             CLASSES), merged with the files given, whose\n"
"                             entries win; without --samples or --classes\n"
"                             they are used when FILE has x86-64 code with\n"
"                             DWARF (the basis is printed and in the JSON)\n"
"      --strict-classes       a classes entry naming a member the struct\n"
"                             lacks is an error (default: a warning)\n"
"  -s, --samples FILE         measured classes (as structlint report); a\n"
"                             member one CPU alone stores to is that CPU's\n"
"                             (writer label cpuN); in a profile without\n"
"                             stores, a line whose loads hit modified lines\n"
"                             (HITM) is an error (unseen-writer); with\n"
"                             --baseline, its structs are compared with\n"
"                             the measured classes\n"
"output:\n"
"  -j, --json                 JSON (schema structlint.check/v1)\n"
"      --sarif                SARIF 2.1.0 (code-scanning upload; notes\n"
"                             left out, locations relative to the\n"
"                             current directory as %SRCROOT%)\n"
"      --source-root DIR      SARIF: decl files under DIR (or starting\n"
"                             with the relative prefix DIR, as kernel\n"
"                             DWARF paths do) relative to %SRCROOT% = DIR\n"
"      --notes                SARIF: include the notes too\n"
"      --no-notes             text: leave the note lines out (the summary\n"
"                             still counts them)\n"
"  -p, --pretty               indent the JSON or SARIF (implies --json\n"
"                             without --sarif)\n"
"  -c, --cacheline N          cache line size in bytes (default 64)\n"
"  -F, --format-path LIST     debug formats to read: dwarf,btf\n"
"      --debug-root DIR       where separate debug files live\n"
"      --no-cache             neither read nor write the cached name\n"
"                             index and static access map (in\n"
"                             $STRUCTLINT_CACHE_DIR, else $XDG_CACHE_HOME/\n"
"                             structlint, ~/.cache/structlint; structlint(1)\n"
"                             FILES)\n"
"  -h, --help                 this help\n"
"\n"
"exit status: 0 everything holds, 1 violations (errors not suppressed),\n"
"2 usage or input error (one line on stderr: FILE:LINE:COLUMN for rules).\n"
"See structlint(1), CHECK, RULES FILES, KERNEL CACHELINE GROUPS, BASELINE\n"
"(the rule ids and their severities).\n";

enum { OPT_SARIF = CLI_OPT_OWN + 40, OPT_SUPPRESS, OPT_SOURCE_ROOT, OPT_NOTES, OPT_NO_NOTES };

static const struct option long_opts[] = {
	CLI_ANALYSIS_LONGOPTS,
	{ "rules", required_argument, NULL, 'r' },
	{ "baseline", required_argument, NULL, 'b' },
	{ "suppress", required_argument, NULL, OPT_SUPPRESS },
	{ "sarif", no_argument, NULL, OPT_SARIF },
	{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
	{ "notes", no_argument, NULL, OPT_NOTES },
	{ "no-notes", no_argument, NULL, OPT_NO_NOTES },
	{ NULL, 0, NULL, 0 },
};

/* An error in a text or JSON input: "FILE:LINE:COLUMN: what (hint)" when
 * the library put the column at the front of the message ("column N:
 * ..."), as rules files and the JSON readers do; else cli_fail(). */
int cli_fail_at(const struct slt_error *err)
{
	unsigned col;
	int used = 0;
	if (err->file[0] && err->line && sscanf(err->message, "column %u: %n", &col, &used) == 1 &&
	    used > 0) {
		fprintf(stderr, "structlint: %s:%u:%u: %s%s%s%s\n", err->file, err->line, col,
			err->message + used, err->hint[0] ? " (" : "", err->hint,
			err->hint[0] ? ")" : "");
		return SLT_EXIT_ERROR;
	}
	return cli_fail(err);
}

/* Suppressions whose rule glob matches no rule id can never apply: one
 * warning each, naming where the entry is. */
void cli_warn_suppressions(const struct slt_suppressions *s)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!slt_gate_rule_known(s->entries[i].rule))
			fprintf(stderr, "structlint: warning: %s: rule '%s' matches no rule id: this "
				"suppression never applies (rule ids: structlint(1), CHECK and "
				"BASELINE)\n", s->entries[i].where, s->entries[i].rule);
}

void cli_warn_classes_unused(const struct slt_classes *cl, const char *const *paths,
			     size_t n_paths, const char *const *names, size_t n_names,
			     const char *what)
{
	for (size_t f = 0; cl && f < n_paths; f++) {
		const char *other = NULL;
		bool used = false;
		for (size_t k = 0; k < cl->n && !used; k++) {
			const struct slt_class_entry *e = &cl->entries[k];
			if (!e->file || !e->struct_name || strcmp(e->file, paths[f]))
				continue;
			other = other ? other : e->struct_name;
			for (size_t i = 0; i < n_names && !used; i++)
				used = !strcmp(names[i], e->struct_name);
		}
		if (!used && other)
			fprintf(stderr, "structlint: warning: %s: classes for %s, none for the "
				"structs %s\n", paths[f], other, what);
	}
}

/* What checks nothing: a group of a section that no separate or
 * max-lines names, one warning each at the group's RULES:LINE:COLUMN. */
static void warn_unused_groups(const struct slt_rules *rules, const char *path)
{
	for (size_t i = 0; rules && i < rules->n_structs; i++) {
		const struct slt_rules_struct *rs = &rules->structs[i];
		for (size_t g = 0; g < rs->n_groups; g++) {
			bool used = false;
			for (size_t k = 0; k < rs->n_rules && !used; k++) {
				const struct slt_rule *ru = &rs->rules[k];
				if (ru->kind != SLT_RULE_SEPARATE && ru->kind != SLT_RULE_MAX_LINES)
					continue;
				for (size_t n = 0; n < ru->n_names && !used; n++)
					used = !strcmp(ru->names[n].name, rs->groups[g].name);
			}
			if (!used)
				fprintf(stderr, "structlint: warning: %s:%u:%u: group '%s' of %s is used "
					"by no rule: it checks nothing (name it in separate or max-lines)\n",
					path, rs->groups[g].line, rs->groups[g].column, rs->groups[g].name,
					rs->name);
		}
	}
}

/* A usage error of check: one stderr line pointing at check's help. */
static int check_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cli_cmd_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = cli_usage_errorv(cmd, fmt, ap);
	va_end(ap);
	return rc;
}

/* --sarif anywhere on the command line (before "--"): every exit 2,
 * usage errors included, still writes a SARIF log (structlint(1)). */
static bool sarif_on_failure;

void cli_sarif_failure(const struct slt_error *err, const char *input)
{
	struct slt_error u;
	if (!err) {   /* the usage error just printed */
		slt_error_clear(&u);
		slt_error_set(&u, SLT_EUSAGE, NULL, -1, NULL, "%s", cli_last_usage_error());
		err = &u;
	}
	char cwd[4096];
	struct slt_gate_write_opts wo = { .input = input ? input : "",
					  .version = STRUCTLINT_VERSION,
					  .cwd = getcwd(cwd, sizeof(cwd)) };
	struct slt_error werr;
	slt_error_clear(&werr);
	if (slt_gate_write_sarif_failure(stdout, err, &wo, &werr))
		cli_fail(&werr);
}

bool cli_argv_sarif(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--sarif"))
			return true;
	return false;
}

/* With --sarif: a SARIF log saying the check did not run (err: why). */
static void sarif_failure(const struct slt_error *err, const char *input)
{
	if (sarif_on_failure)
		cli_sarif_failure(err, input);
}

/* With --sarif: the log for the usage error just printed. */
static int sarif_usage_failure(int code)
{
	sarif_failure(NULL, NULL);
	return code;
}

/* The one exit-2 path of check: the error line (FILE:LINE:COLUMN when the
 * error has them) and, with --sarif, a log saying the check did not run. */
static int check_failed(const struct slt_error *err, const char *input)
{
	int code = cli_fail_at(err);
	sarif_failure(err, input);
	return code;
}

static int check_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = cli_usage_errorv("check", fmt, ap);
	va_end(ap);
	return sarif_usage_failure(rc);
}

struct check;
static int section_missing(const struct check *k, struct slt_error *err);

struct check {
	struct cli_analysis c;
	const char *rules_path, *baseline_path, *suppress_path;
	const char *source_root;   /* --source-root DIR */
	bool sarif, notes, no_notes;
	bool warned_empty;         /* the empty-section warning was given */
	char basis[256];           /* "estimated from IP samples x static
				      sites (...)" when --samples were IP
				      samples, the static classes' basis
				      when those are used, else "" */
	struct slt_rules *rules;
	struct slt_suppressions *suppress;
	const char **names;
	size_t n_names, cap_names;
	struct slt_strmap name_index;   /* names[i] -> i */
	struct slt_gate_measured *measured;   /* per-CPU profiles' lines, for
						 the class rules */
	size_t n_measured, cap_measured;
};

/* Rules and group checks of one loaded definition. */
static int check_one(struct check *k, const struct slt_struct *s, const enum slt_class *classes,
		     const char *const *labels, struct slt_gate_result *r, struct slt_error *err)
{
	struct slt_check_opts o = { .cacheline_size = k->c.ropts.cacheline_size,
				    .classes = classes, .labels = labels };
	const struct slt_rules_struct *rs = slt_rules_find(k->rules, s->name);
	int rc = 0;
	bool labelled = false;
	for (size_t i = 0; labels && i < s->n_members && !labelled; i++)
		labelled = labels[i] != NULL;
	if (rs && !rs->n_rules && !k->warned_empty && !labelled) {
		/* an empty section checks the kernel groups (and writer
		 * labels) only: say so when the struct has neither, once */
		struct slt_cl_group *g = NULL;
		size_t n = 0;
		if (slt_groups_find(s, &g, &n, NULL))
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		free(g);
		if (!n) {
			fprintf(stderr, "structlint: warning: %s:%u:%u: [struct %s] has no rule and %s "
				"has no __cacheline_group_begin__ markers: nothing is checked\n",
				k->rules_path, rs->line, rs->column, rs->name, rs->name);
			k->warned_empty = true;
		}
	}
	if (rs)
		rc = slt_rules_check(rs, k->rules_path, s, &o, r, err);
	if (!rc)
		rc = slt_groups_check(s, &o, r, err);
	if (!rc)
		rc = slt_writers_check(s, &o, r, err);
	return rc;
}

/* Does a rules section name a member path "a.b"?  Members of a named
 * nested struct exist in the layout only when it is loaded expanded (as
 * pahole --expand_types shows them), so the rules' structs are then
 * loaded that way (the baseline comparison keeps its own options). */
static bool rules_name_paths(const struct slt_rules *rules)
{
	for (size_t i = 0; rules && i < rules->n_structs; i++) {
		const struct slt_rules_struct *rs = &rules->structs[i];
		for (size_t g = 0; g < rs->n_groups; g++)
			for (size_t m = 0; m < rs->groups[g].n_members; m++)
				if (strchr(rs->groups[g].members[m].name, '.'))
					return true;
		for (size_t k = 0; k < rs->n_rules; k++) {
			const struct slt_rule *ru = &rs->rules[k];
			if (ru->kind != SLT_RULE_FIRST && ru->kind != SLT_RULE_OFFSET &&
			    ru->kind != SLT_RULE_CACHELINE_START &&
			    ru->kind != SLT_RULE_NO_HOT_WRITE_NEAR)
				continue;
			if (strchr(ru->names[0].name, '.'))
				return true;
		}
	}
	return false;
}

/* Without --samples: one load of every struct, classes from --classes. */
static int check_given(struct check *k, struct slt_gate_result *r, struct slt_error *err)
{
	struct slt_layout *l = NULL;
	struct slt_classes *cl = NULL;
	struct slt_load_opts lo = k->c.lopts;
	lo.expand |= rules_name_paths(k->rules);
	int rc = slt_layout_load(k->c.file, k->names, k->n_names, &lo, &l, err);
	if (!rc && k->c.n_classes)
		rc = cli_classes_load(k->c.classes_paths, k->c.n_classes, &cl, err);
	bool static_cl = false;
	if (!rc && k->c.use_static) {
		size_t replaced = 0, added = 0;
		rc = cli_static_classes_over(k->c.file, l, k->c.lopts.no_cache, &cl, &replaced,
					     &added, err);
		static_cl = !rc;
	} else if (!rc && !cl && k->c.file) {
		/* neither --samples nor --classes: the static classes when the
		 * binary allows them (x86-64 code with DWARF), else none, as
		 * before */
		struct slt_error e2;
		slt_error_clear(&e2);
		if (!cli_static_classes(k->c.file, l, k->c.lopts.no_cache, &cl, &e2)) {
			static_cl = true;
			fprintf(stderr, "structlint: note: no --samples or --classes: member classes "
				"proposed by the static access map of %s\n", k->c.file);
		}
	}
	if (static_cl)
		cli_static_basis(k->basis, sizeof(k->basis), k->c.file,
				 k->c.n_classes ? k->c.classes_joined : NULL);
	/* classes inside a nested struct: expanded, as report loads it */
	struct slt_layout *spelled = NULL;
	if (!rc && cl)
		rc = slt_layout_unfold(&l, k->c.file, k->names, k->n_names, &lo, cl, NULL, 0,
				       NULL, &spelled, err);
	if (!rc && cl)
		rc = cli_classes_warn(cl, spelled ? spelled : l, k->c.strict_classes, err);
	slt_layout_free(spelled);
	for (size_t i = 0; !rc && l && i < l->n_structs; i++) {
		enum slt_class *g = NULL;
		if (cl && !(g = cli_given_classes(cl, &l->structs[i])))
			rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		if (!rc)
			rc = check_one(k, &l->structs[i], g,
				       g ? cli_given_labels(g, &l->structs[i]) : NULL, r, err);
		free(g);
	}
	slt_classes_free(cl);
	slt_layout_free(l);
	return rc;
}

/* Without --rules, check gates what report finds: each finding of a is
 * an error (rule finding-KIND), one per (line, kind) as report lists them. */
static int gate_findings(const struct slt_analysis *a, struct slt_gate_result *r,
			 struct slt_error *err)
{
	size_t from = r->n_violations;
	if (slt_report_findings_violations(a, r))
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	r->n_checks += slt_cachelines(a->layout->size, a->cacheline_size);
	for (size_t i = from; i < r->n_violations; i++)
		r->violations[i].severity = SLT_SEV_ERROR;
	return 0;
}

/* What a's per-CPU profile measured per line, once per struct name, for
 * the class rules (slt_gate_class_rules()). */
static int keep_measured(struct check *k, const struct slt_analysis *a, struct slt_error *err)
{
	for (size_t i = 0; i < k->n_measured; i++)
		if (!strcmp(k->measured[i].struct_name, a->layout->name))
			return 0;
	if (k->n_measured == k->cap_measured) {
		size_t cap = k->cap_measured ? 2 * k->cap_measured : 8;
		struct slt_gate_measured *m = realloc(k->measured, cap * sizeof(*m));
		if (!m)
			return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
		k->measured = m;
		k->cap_measured = cap;
	}
	int rc = slt_gate_measured_of(a, &k->measured[k->n_measured]);
	if (rc < 0)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	k->n_measured += rc;
	return 0;
}

/* The classes a --samples analysis gives (measured, given ones winning,
 * with the writer labels the checks use) as classes-file lines on f, for
 * the baseline comparison. */
static void classes_text(FILE *f, const struct slt_analysis *a, const char *const *lab)
{
	const struct slt_struct *s = a->layout;
	fprintf(f, "[%s]\n", s->name);
	for (size_t m = 0; m < s->n_members; m++) {
		enum slt_class cls = a->classes[m].cls;
		char path[512];
		if (cls == SLT_CLASS_NONE || !s->members[m].name[0])
			continue;
		slt_member_path(s, m, path, sizeof(path));
		bool writer = cls == SLT_CLASS_HOT_WRITE || cls == SLT_CLASS_MIXED ||
			      cls == SLT_CLASS_TRUE_SHARED;
		fprintf(f, "%s %s%s%s\n", path, slt_class_name(cls), writer && lab[m] ? ":" : "",
			writer && lab[m] ? lab[m] : "");
	}
}

/* With --samples: report's loading, join and analysis per struct; the
 * measured classes (given ones win, as in report).  The rules and groups
 * are checked for k->names; with a baseline b, its structs are analysed
 * too and *measured gets every analysed struct's classes (check
 * --baseline compares with the measured classes, as with --classes). */
static int check_measured(struct check *k, const struct slt_baseline *b,
			  struct slt_classes **measured, struct slt_gate_result *r,
			  struct slt_error *err)
{
	int rc = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *cf = b ? open_memstream(&text, &len) : NULL;
	if (b && !cf)
		return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	size_t n_all = k->n_names + (b ? b->n_structs : 0);
	for (size_t n = 0; !rc && n < n_all; n++) {
		bool checked = n < k->n_names;
		const char *name = checked ? k->names[n] : b->structs[n - k->n_names].name;
		size_t j;
		bool dup = false;
		for (size_t q = k->n_names; !checked && q < n && !dup; q++)
			dup = !strcmp(b->structs[q - k->n_names].name, name);
		if (!checked && (dup || slt_strmap_get(&k->name_index, name, strlen(name), &j)))
			continue;   /* analysed already */
		struct cli_analysis c = k->c;
		char *ops[2];
		int n_ops = 0;
		if (k->c.file)
			ops[n_ops++] = (char *)k->c.file;
		ops[n_ops++] = (char *)name;
		c.lopts.expand |= rules_name_paths(k->rules);
		c.layout = NULL;
		c.classes = NULL;
		c.profiles = NULL;
		c.jopts.hints = c.hints;
		c.fail = true;   /* a gate: samples that cannot show writes are refused */
		rc = cli_analysis_load(&c, ops, n_ops, err);
		for (size_t i = 0; !rc && c.profiles && i < c.layout->n_structs; i++)
			if (c.profiles[i] && !strncmp(c.profiles[i]->base_note, SLT_IPW_BASIS,
						      strlen(SLT_IPW_BASIS)))
				snprintf(k->basis, sizeof(k->basis), "%s", c.profiles[i]->base_note);
		for (size_t i = 0; !rc && i < c.layout->n_structs; i++) {
			struct slt_analysis *a = NULL;
			enum slt_class *given = NULL, *cls = NULL;
			const char **lab = NULL;
			char (*cpu)[24] = NULL;
			rc = cli_analysis_run(&c, i, &a, &given, err);
			if (!rc && (!(cls = calloc(a->layout->n_members + 1, sizeof(*cls))) ||
				    !(lab = calloc(a->layout->n_members + 1, sizeof(*lab))) ||
				    !(cpu = calloc(a->layout->n_members + 1, sizeof(*cpu)))))
				rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
			for (size_t m = 0; !rc && m < a->layout->n_members; m++)
				cls[m] = a->classes[m].cls;
			/* measured: a member one CPU alone stores to is that
			 * CPU's (writer label cpuN) */
			if (!rc)
				cli_writer_labels(a, lab, cpu);
			if (!rc && checked)
				rc = check_one(k, &c.layout->structs[i], cls, lab, r, err);
			/* a loads-only profile: its HITM loads show written
			 * lines, as report says (without --rules: report's
			 * findings, unseen writers among them) */
			if (!rc && checked && k->rules_path)
				rc = slt_unseen_check(a, c.samples, r, err);
			if (!rc && checked && !k->rules_path)
				rc = gate_findings(a, r, err);
			if (!rc)
				rc = keep_measured(k, a, err);
			if (!rc && cf)
				classes_text(cf, a, lab);
			free(cls);
			free(lab);
			free(cpu);
			slt_analysis_free(a);
			free(given);
		}
		cli_analysis_release(&c);
	}
	if (cf && fclose(cf) && !rc)
		rc = slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	if (!rc && cf)
		rc = slt_classes_read_mem(text, len, k->c.samples, SLT_CLASSES_FILE, NULL,
					  measured, err);
	free(text);
	return rc;
}

/* The loader found no struct of a name a rules section gives: say so at
 * the section (RULES:LINE:COLUMN), with the loader's did-you-mean hint.
 * Returns 1 when err was rewritten. */
static int section_missing(const struct check *k, struct slt_error *err)
{
	char name[256], input[512], hint[512];
	if (sscanf(err->message, "no struct or union named '%255[^']'", name) != 1)
		return 0;
	const struct slt_rules_struct *rs = slt_rules_find(k->rules, name);
	if (!rs)
		return 0;
	snprintf(input, sizeof(input), "%s", err->file);
	snprintf(hint, sizeof(hint), "%s", err->hint);
	slt_error_clear(err);
	slt_error_set_line(err, SLT_EUSAGE, k->rules_path, rs->line, hint,
			   "column %u: %s has no struct or union named '%s'", rs->column, input, name);
	return 1;
}

/* Add name to k->names unless there: a hash lookup and geometric growth,
 * so 100,000 rules sections cost linear time. */
static int add_name(struct check *k, const char *name)
{
	if (k->n_names == k->cap_names) {
		size_t cap = k->cap_names ? 2 * k->cap_names : 16;
		const char **nv = realloc(k->names, cap * sizeof(*nv));
		if (!nv)
			return -1;
		k->names = nv;
		k->cap_names = cap;
	}
	int rc = slt_strmap_put(&k->name_index, name, strlen(name), k->n_names, NULL);
	if (rc < 0)
		return -1;
	if (rc == 0)
		k->names[k->n_names++] = name;
	return 0;
}

/* Drop names[n..): the index again holds names[0..n) only. */
static int keep_names(struct check *k, size_t n)
{
	slt_strmap_free(&k->name_index);
	k->n_names = 0;
	for (size_t i = 0; i < n; i++)
		if (add_name(k, k->names[i]))
			return -1;
	return 0;
}

static int run(struct check *k, char **ops, int n_ops)
{
	struct slt_error err;
	struct slt_gate_result *r = NULL;
	struct slt_baseline *b = NULL;
	int rc;
	slt_error_clear(&err);
	int fo = n_ops > 0 ? cli_file_operand(ops[0], &err) : 0;
	if (fo < 0)
		return check_failed(&err, ops[0]);
	if (fo == 1) {
		k->c.file = ops[0];
		ops++;
		n_ops--;
	}
	k->c.jopts.cacheline_size = k->c.aopts.cacheline_size = k->c.ropts.cacheline_size;
	if (!k->rules_path && !k->baseline_path && (!n_ops || (!k->c.samples && !k->c.n_classes)))
		return check_usage("check: give --rules FILE or --baseline FILE, or STRUCT operands "
				   "with --samples or --classes (report's findings are then gated)");
	if ((k->rules_path && slt_rules_read(k->rules_path, &k->rules, &err)) ||
	    (k->suppress_path && slt_suppressions_read(k->suppress_path, &k->suppress, &err)) ||
	    (k->baseline_path && slt_baseline_read(k->baseline_path, &b, &err)))
		return check_failed(&err, k->c.file);
	cli_warn_suppressions(k->suppress);
	if (b)
		cli_warn_suppressions(&b->suppressions);
	warn_unused_groups(k->rules, k->rules_path);
	for (size_t i = 0; k->rules && i < k->rules->n_structs; i++)
		if (add_name(k, k->rules->structs[i].name))
			goto oom;
	for (int i = 0; i < n_ops; i++)
		if (add_name(k, ops[i]))
			goto oom;
	if (k->c.n_classes) {
		/* a classes file for none of the structs checked (rules,
		 * operands, baseline) */
		struct slt_classes *cl = NULL;
		size_t nn = k->n_names;
		for (size_t i = 0; b && i < b->n_structs; i++)
			if (add_name(k, b->structs[i].name))
				goto oom;
		if ((rc = cli_classes_load(k->c.classes_paths, k->c.n_classes, &cl, &err))) {
			slt_baseline_free(b);
			return check_failed(&err, k->c.file);
		}
		cli_warn_classes_unused(cl, (const char *const *)k->c.classes_paths,
					k->c.n_classes, k->names, k->n_names, "checked");
		slt_classes_free(cl);
		if (keep_names(k, nn))
			goto oom;
	}
	if ((rc = slt_gate_result_new(&r, &err))) {
		slt_baseline_free(b);
		return check_failed(&err, k->c.file);
	}
	rc = 0;
	struct slt_classes *measured = NULL;
	/* without --rules, report's findings are gated: the classes file's
	 * too (the analysis runs as report's does) */
	if ((k->c.samples && (k->n_names || b)) ||
	    (!k->rules_path && !b && k->c.n_classes && k->n_names))
		rc = check_measured(k, b, &measured, r, &err);
	else if (k->n_names)
		rc = check_given(k, r, &err);
	if (!rc && b) {
		struct slt_classes *cl = measured;
		measured = NULL;
		if (!cl && k->c.n_classes)
			rc = cli_classes_load(k->c.classes_paths, k->c.n_classes, &cl, &err);
		struct slt_baseline_opts bo = { .classes = cl, .suppress = k->suppress,
						.source = k->baseline_path };
		if (!rc)
			rc = slt_baseline_compare_file(b, k->c.file, &k->c.lopts, &bo, r, &err);
		slt_classes_free(cl);
	}
	slt_classes_free(measured);
	if (!rc && slt_gate_class_rules(r, 0, k->measured, k->n_measured))
		rc = slt_error_set(&err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	for (size_t i = 0; i < k->n_measured; i++)
		slt_gate_measured_release(&k->measured[i]);
	free(k->measured);
	k->measured = NULL;
	k->n_measured = 0;
	if (!rc && k->suppress)
		slt_suppressions_apply(k->suppress, r, 0);
	/* structs looked at: the distinct names of rules, operands and baseline */
	size_t n = k->n_names;
	for (size_t i = 0; b && i < b->n_structs; i++) {
		size_t j;
		n += !slt_strmap_get(&k->name_index, b->structs[i].name,
				     strlen(b->structs[i].name), &j);
	}
	r->n_structs_checked = n;
	int exit_code;
	if (rc == SLT_ENOTFOUND && section_missing(k, &err))
		rc = SLT_EUSAGE;
	char cwd[4096];
	struct slt_gate_write_opts wo = { .input = k->c.file ? k->c.file : "",
					  .pretty = k->c.ropts.pretty,
					  .version = STRUCTLINT_VERSION,
					  .source_root = k->source_root,
					  .cwd = getcwd(cwd, sizeof(cwd)),
					  .notes = k->notes, .no_notes = k->no_notes };
	if (k->basis[0])
		wo.basis = k->basis;
	if (rc > 0) {
		exit_code = sarif_usage_failure(rc);   /* a usage error, printed */
	} else if (rc) {
		exit_code = rc == SLT_EUSAGE && err.line ? cli_fail_at(&err) : cli_fail(&err);
		/* --sarif: a log saying the check did not run, for the upload */
		struct slt_error werr;
		slt_error_clear(&werr);
		if (k->sarif && slt_gate_write_sarif_failure(stdout, &err, &wo, &werr))
			cli_fail(&werr);
	} else {
		if (k->sarif)
			rc = slt_gate_write_sarif(stdout, r, &wo, &err);
		else if (k->c.json)
			rc = slt_gate_write_json(stdout, r, &wo, &err);
		else
			rc = slt_gate_write_text(stdout, r, &wo, &err);
		exit_code = rc ? cli_fail(&err) :
			    slt_gate_failures(r) ? SLT_EXIT_FINDINGS : SLT_EXIT_OK;
	}
	slt_gate_result_free(r);
	slt_baseline_free(b);
	return exit_code;
oom:
	slt_baseline_free(b);
	slt_error_set(&err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
	return check_failed(&err, k->c.file);
}

int cmd_check(int argc, char **argv)
{
	struct check k = { 0 };
	cli_analysis_init(&k.c);
	k.c.classes_optional = true;
	int opt;
	opterr = 0;
	optind = 1;
	sarif_on_failure = cli_argv_sarif(argc, argv);
	while ((opt = getopt_long(argc, argv, ":" CLI_ANALYSIS_SHORTOPTS "r:b:", long_opts, NULL)) != -1) {
		int rc = 0;
		switch (opt) {
		case 'r': k.rules_path = optarg; continue;
		case 'b': k.baseline_path = optarg; continue;
		case OPT_SUPPRESS: k.suppress_path = optarg; continue;
		case OPT_SARIF: k.sarif = true; continue;
		case OPT_SOURCE_ROOT: k.source_root = optarg; continue;
		case OPT_NOTES: k.notes = true; continue;
		case OPT_NO_NOTES: k.no_notes = true; continue;
		case CLI_OPT_FAIL:
			return check_usage("check always fails on violations: drop --fail-on-findings");
		case '?':
			return check_usage("unknown option '%s'", argv[optind - 1]);
		case ':':
			return check_usage("option '%s' needs an argument", argv[optind - 1]);
		default:
			rc = cli_analysis_option(&k.c, opt, optarg, argv[optind - 1]);
		}
		if (rc == -1) {
			fputs(usage, stdout);
			return SLT_EXIT_OK;
		}
		if (rc == 1)
			return check_usage("unknown option '%s'", argv[optind - 1]);
		if (rc)
			return sarif_usage_failure(rc);
	}
	/* --pretty implies --json unless --sarif chose the format */
	if (k.c.ropts.pretty && !k.sarif)
		k.c.json = true;
	if (k.sarif && k.c.json)
		return check_usage("check: --json and --sarif are exclusive");
	if ((k.source_root || k.notes) && !k.sarif)
		return check_usage("check: %s applies to --sarif output only (text and --json "
				       "always list notes and keep the decl paths)",
				       k.source_root ? "--source-root" : "--notes");
	if (k.no_notes && (k.sarif || k.c.json))
		return check_usage("check: --no-notes applies to the text output only (--sarif "
				       "leaves notes out unless --notes; --json lists every violation)");
	if (k.source_root && !k.source_root[0])
		return check_usage("check: --source-root needs a directory");
	int rc = run(&k, argv + optind, argc - optind);
	free(k.names);
	slt_strmap_free(&k.name_index);
	slt_rules_free(k.rules);
	slt_suppressions_free(k.suppress);
	return rc;
}
