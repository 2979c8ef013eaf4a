/* SPDX-License-Identifier: MIT */
/*
 * `validate` output (include/structlint/validate.h): the text table and
 * the "structlint.validate/v1" JSON document:
 *
 * {
 *   "schema": "structlint.validate/v1",
 *   "struct": NAME, "cacheline_size": BYTES,
 *   "a": { "file": PATH, "what": TEXT, "size": BYTES },   (base)
 *   "b": { "file": PATH, "what": TEXT, "size": BYTES },   (with fix)
 *   "basis": TEXT (only when the accesses are estimates: "estimated from
 *            IP samples x static sites (...)"),
 *   "pattern": TEXT: "measured: N (offset, width, CPU) records ..." (from
 *            --samples) or "synthetic: ..." (classes only, --synthetic),
 *   "stats": (stats mode) { "mode", "why", "counters", "locks",
 *             "read_every", "period_ms" } as the engine JSON's (added to v1),
 *   "options": { "mode": "stats" | "replay", "rounds", "seconds" (per run),
 *       "warmup_seconds", "threads" (updater threads run), "batch",
 *       "flush": "list" | "pop", "depth", "fanout", "write_every" (these
 *       five null in replay mode), "seed", "pin": bool, "realtime": bool
 *       (added to v1), "order": "ABBA",
 *       "paired": bool },
 *   "runs": { "a": [ OPS_PER_S ], "b": [ OPS_PER_S ] },  (round order)
 *   "median_ops_per_s": { "a", "b" },
 *   "ratio": B/A of the medians, "change_percent": (ratio - 1) * 100
 *       (v1 keys, kept: the medians' ratio, not the verdict's estimator),
 *   "medians_ratio", "medians_change_percent": the same, named,
 *   "paired_ratio", "paired_change_percent": the geometric mean of the
 *       per-round ratios B/A (= ci_paired.ratio),
 *   "change": { "estimator": TEXT, "from": "ci_paired" | "ci", "ratio",
 *       "percent" }: the headline, the verdict's estimator (paired: the
 *       geometric mean of the per-round ratios; --independent: the
 *       medians' ratio), as the text table's change column,
 *   "ci": { "level", "lo", "hi" (ratios B/A), "lo_percent", "hi_percent",
 *       "method": "percentile bootstrap", "resamples", "seed" },
 *   "ci_paired": { "level", "ratio" (geometric mean of the per-round
 *       ratios B/A), "lo", "hi", "lo_percent", "hi_percent",
 *       "method": "paired Student t on log ratios", "df",
 *       "resamples", "seed" (0: no resampling) },
 *       (lo, hi, lo_percent, hi_percent: null under 3 rounds)
 *   "verdict_from": "ci_paired" (default) | "ci" (--independent),
 *   "verdict": "faster" | "slower" | "no measurable change" | "no verdict",
 *   "reason": why there is no verdict (under 3 rounds; threads that did
 *       not overlap enough), else null,
 *   "overlap": { "min": the floor applied (0..1; 0: none, one thread),
 *       "kept_rounds", "kept": [ BOOL ] (round order: both runs at or over
 *       "min"; with 3 or more, the medians, intervals and verdict are of
 *       these rounds only),
 *       "low": bool (no verdict for it), "allowed_cpus", "distinct_cpus",
 *       "a" | "b": { "median", "min" (fractions of the run during which
 *       >= 2 updaters ran at once), "runs": [ FRACTION ] (round order),
 *       "cpu_share": median of the updaters' CPU time / wall time } },
 *   "sensitivity" (only with --sensitivity): { "robust": bool (null: no
 *       judgement, no verdict anywhere), "skipped": TEXT | null (a knob
 *       that does not apply, and why), "points":
 *       [ { "knob": "write rate" | "batch", "value", "ratio", "lo", "hi",
 *       "verdict", "overlap_a", "overlap_b" } ] },
 *   "program" (only with --run): { "run": CMD, "rounds", "wall_s",
 *       "cpu_s": { "a", "b": [ SECONDS ] (round order) }, "kept_rounds",
 *       "kept": [ BOOL ] (round order; the medians, intervals and verdict
 *       are of the kept rounds when 3 or more), "median_wall_s",
 *       "median_cpu_s", "build_s": { "a", "b" }, "wall_speed",
 *       "cpu_speed": { "ratio", "lo", "hi", "level" } (paired, of 1/time,
 *       B/A), "verdict" (from wall_speed), "co_scheduling": {
 *       "cpu_per_wall": { "a", "b" } (median CPU s / wall s),
 *       "overlap_at_least": { "a", "b" } (median lower bound on the share
 *       of the wall time with >= 2 threads running, from CPU time:
 *       (cpu / wall - 1) / (cpus - 1), or the per-thread samples' when
 *       larger), "cpus" } (added to v1), and (added later, additive)
 *       "method": "per-thread" (CPU time of each thread sampled from /proc
 *       every 5 ms, src/cli/proc_sched.h) | "cpu/wall", "overlap_at_most":
 *       { "a", "b" } (1 with cpu/wall), "sampled_cpu": { "a", "b" } (share
 *       of the CPU time the samples saw), "min_overlap", "low_overlap"
 *       (true: verdict "no verdict", the threads ran at once less than
 *       min_overlap of the wall time at most) },
 *   "roles": { "a" | "b": [ { "member", "role", "offset", "size" } ] },
 *   "roles_differ": null, or what differs between the two role maps
 *       other than offsets (the ratio then measures layout plus workload),
 *   "sides": { "a" | "b": { "latency_of": "update" | "access",
 *       "lat_p50_ns", "lat_p90_ns", "lat_p99_ns", "lat_p999_ns" (medians
 *       over the runs, 1 decimal), "flushes", "batch_crossings",
 *       "flush_wakeups", "seconds" (run time summed),
 *       "flush_lock", "percpu_lock", "percpu_update_lock" (of percpu_lock's
 *       holds the update path's; added to v1): { "holds" (not preempted), "sum_ns",
 *           "max_ns", "preempted", "preempted_max_ns",
 *           "buckets_us": { "0-1": N, "1-5": N, ... ">90": N } } } }
 * }
 * Any change that drops or renames a key bumps the version.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/engine_mode.h"
#include "report/json_out.h"
#include "structlint/validate.h"

static const char *mode_name(enum slt_engine_mode m)
{
	return m == SLT_ENGINE_REPLAY ? "replay" : "stats";
}

/* "+12.3%" of a ratio. */
static void pct(char *buf, size_t n, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, n, "%+.1f%%", (ratio - 1.0) * 100.0);
	else   /* no round ran on both sides */
		snprintf(buf, n, "n/a");
}

static void row(FILE *f, const char *what, double a, double b, int prec)
{
	char ch[32] = "";
	if (a > 0.0 && isfinite(a) && isfinite(b))
		pct(ch, sizeof(ch), b / a);
	fprintf(f, "%-22s %16.*f %16.*f %16s\n", what, prec, a, prec, b, ch);
}

static void hist_rows(FILE *f, const char *what,
		      const struct slt_engine_hist *a,
		      const struct slt_engine_hist *b)
{
	if (!a->holds && !b->holds)
		return;
	char label[64];
	snprintf(label, sizeof(label), "%s holds", what);
	row(f, label, (double)a->holds, (double)b->holds, 0);
	snprintf(label, sizeof(label), "%s mean us", what);
	row(f, label, a->holds ? (double)a->sum_ns / (double)a->holds / 1e3 : 0.0,
	    b->holds ? (double)b->sum_ns / (double)b->holds / 1e3 : 0.0, 2);
	snprintf(label, sizeof(label), "%s max us", what);
	row(f, label, (double)a->max_ns / 1e3, (double)b->max_ns / 1e3, 1);
	snprintf(label, sizeof(label), "%s preempted", what);
	row(f, label, (double)a->preempted, (double)b->preempted, 0);
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++) {
		if (!a->count[i] && !b->count[i])
			continue;
		snprintf(label, sizeof(label), "  %s us", slt_engine_hist_label(i));
		row(f, label, (double)a->count[i], (double)b->count[i], 0);
	}
}

/* Why there is no verdict ("" when there is one). */
static const char *no_verdict_reason(const struct slt_validate_result *r,
				     const struct slt_engine_opts *e,
				     char *buf, size_t n)
{
	buf[0] = 0;
	if (r->low_overlap && r->threads < 2)
		snprintf(buf, n, "one updater thread (%u CPU%s allowed): false sharing needs two threads "
			 "running at once on different CPUs; give --threads 2 or more and at least two CPUs",
			 r->allowed_cpus, r->allowed_cpus == 1 ? "" : "s");
	else if (r->low_overlap)
		snprintf(buf, n, "threads overlapped %.0f%% of the time (median over the runs, A %.0f%%, "
			 "B %.0f%%), under the %.0f%% needed in both runs of %u rounds or more (%u of %u "
			 "had it): false sharing shows only while threads run at once; give the run free "
			 "CPUs (a less loaded machine, --threads <= free CPUs%s)",
			 100.0 * fmin(r->a.median_overlap, r->b.median_overlap),
			 100.0 * r->a.median_overlap, 100.0 * r->b.median_overlap, 100.0 * r->min_overlap,
			 SLT_VALIDATE_MIN_KEPT_ROUNDS, r->kept_rounds, r->rounds,
			 e->realtime ? "" : ", or --realtime");
	else if (r->verdict == SLT_VERDICT_NONE)
		snprintf(buf, n, "%u round%s: too few runs for a confidence interval that "
			 "says anything about the noise; run %u or more rounds",
			 r->rounds, r->rounds == 1 ? "" : "s", SLT_VERDICT_MIN_RUNS);
	return buf;
}

/* One entry per (member, role): a measured pattern binds a member once
 * per (offset, width, CPU) record; those print as the bytes they span
 * and their number ("hits hot-write @0+8 x3"). */
static void roles_text(FILE *f, char side, const struct slt_engine_bound *b)
{
	fprintf(f, "roles %c:", side);
	bool first = true;
	for (size_t k = 0; k < b->n_roles; k++) {
		const struct slt_engine_bound_role *rk = &b->roles[k];
		bool seen = false;
		for (size_t j = 0; j < k && !seen; j++)
			seen = b->roles[j].role == rk->role && !strcmp(b->roles[j].member, rk->member);
		if (seen)
			continue;
		uint64_t lo = rk->offset, hi = rk->offset + rk->size;
		size_t n = 0;
		for (size_t j = k; j < b->n_roles; j++) {
			const struct slt_engine_bound_role *rj = &b->roles[j];
			if (rj->role != rk->role || strcmp(rj->member, rk->member))
				continue;
			n++;
			lo = rj->offset < lo ? rj->offset : lo;
			hi = rj->offset + rj->size > hi ? rj->offset + rj->size : hi;
		}
		fprintf(f, "%s %s %s @%llu+%llu", first ? "" : ",", rk->member,
			slt_engine_role_name(rk->role), (unsigned long long)lo,
			(unsigned long long)(hi - lo));
		if (n > 1)
			fprintf(f, " x%zu", n);
		first = false;
	}
	fputc('\n', f);
}

/* The roles block and the note when the maps differ. */
static void roles_block(FILE *f, const struct slt_validate_labels *l)
{
	if (!l->a_roles || !l->b_roles)
		return;
	roles_text(f, 'A', l->a_roles);
	roles_text(f, 'B', l->b_roles);
	char diff[1024];
	if (slt_engine_bound_diff(l->a_roles, l->b_roles, diff, sizeof(diff)))
		fprintf(f, "note: the role maps differ (%s): A and B run different workloads, "
			"so the ratio measures layout plus workload, not layout alone\n", diff);
	fputc('\n', f);
}

/* "[+1.0%, +5.0%]", or as ratios "[1.0100, 1.0500]"; "-" for no
 * interval. */
static void fmt_interval(char *buf, size_t n, const struct slt_ratio_ci *c,
			 bool ratios)
{
	if (isnan(c->lo) || isnan(c->hi)) {
		snprintf(buf, n, "-");
		return;
	}
	if (ratios) {
		snprintf(buf, n, "[%.4f, %.4f]", c->lo, c->hi);
		return;
	}
	char lo[32], hi[32];
	pct(lo, sizeof(lo), c->lo);
	pct(hi, sizeof(hi), c->hi);
	snprintf(buf, n, "[%s, %s]", lo, hi);
}

int slt_validate_write_text(FILE *f, const struct slt_validate_result *r,
			    const struct slt_validate_labels *l,
			    const struct slt_validate_opts *o)
{
	const struct slt_engine_opts *e = &o->engine;
	fprintf(f, "structlint validate: struct %s, %s engine, %u thread%s, "
		"%u round%s x %.2f s (ABBA order), warm-up %.2f s",
		l->struct_name, mode_name(r->mode), r->threads, r->threads == 1 ? "" : "s",
		r->rounds, r->rounds == 1 ? "" : "s", e->seconds, o->warmup_seconds);
	if (r->mode == SLT_ENGINE_STATS)
		fprintf(f, ", batch %u, flush %s, tree %u x %u", e->batch,
			slt_engine_flush_name(slt_engine_flush_of(e)), e->depth, e->fanout);
	if (e->realtime)
		fputs(", realtime (SCHED_RR)", f);
	fputc('\n', f);
	if (r->mode == SLT_ENGINE_STATS)
		slt_engine_mode_text(f, "  ", r->stats_mode, &r->counters, r->spin_locks, e);
	fprintf(f, "  base (A):     %s, %s (%llu byte%s)\n"
		"  with fix (B): %s, %s (%llu byte%s)\n\n",
		l->a_file, l->a_what, (unsigned long long)l->a_size, l->a_size == 1 ? "" : "s",
		l->b_file, l->b_what, (unsigned long long)l->b_size, l->b_size == 1 ? "" : "s");
	if (l->basis)
		fprintf(f, "accesses: %s\n\n", l->basis);
	if (l->pattern)
		fprintf(f, "pattern: %s\n\n", l->pattern);
	roles_block(f, l);

	/* the row shows the interval the verdict comes from */
	const struct slt_ratio_ci *vci = r->paired ? &r->ci_paired : &r->ci;
	char ch[32];
	pct(ch, sizeof(ch), vci->ratio);
	char ci[80];
	fmt_interval(ci, sizeof(ci), vci, false);
	const struct slt_ratio_ci *other = r->paired ? &r->ci : &r->ci_paired;
	char och[32];
	pct(och, sizeof(och), other->ratio);
	fprintf(f, "%-22s %16s %16s %16s   %-20s %s\n", "", "base", "with fix",
		r->paired ? "change (paired)" : "change (medians)", "95% CI", "verdict");
	fprintf(f, "%-22s %16.0f %16.0f %16s   %-20s %s\n", "ops/s (median)",
		r->a.median_ops_per_s, r->b.median_ops_per_s, ch, ci,
		slt_verdict_name(r->verdict));
	fprintf(f, "%-22s %16s %16s %16s   (%s; not the verdict's)\n",
		r->paired ? "  ratio of medians" : "  paired", "", "", och,
		r->paired ? "B/A of the medians above" : "geometric mean of the per-round ratios");
	const char *lw = slt_engine_lat_what(r->mode);
	char label[64];
	snprintf(label, sizeof(label), "%s p50 ns", lw);
	row(f, label, r->a.lat_p50_ns, r->b.lat_p50_ns, 0);
	snprintf(label, sizeof(label), "%s p90 ns", lw);
	row(f, label, r->a.lat_p90_ns, r->b.lat_p90_ns, 0);
	snprintf(label, sizeof(label), "%s p99 ns", lw);
	row(f, label, r->a.lat_p99_ns, r->b.lat_p99_ns, 0);
	snprintf(label, sizeof(label), "%s p99.9 ns", lw);
	row(f, label, r->a.lat_p999_ns, r->b.lat_p999_ns, 0);
	if (r->mode == SLT_ENGINE_STATS) {
		row(f, "flushes", (double)r->a.flushes, (double)r->b.flushes, 0);
		row(f, "batch crossings", (double)r->a.batch_crossings, (double)r->b.batch_crossings, 0);
		row(f, "flusher wake-ups", (double)r->a.flush_wakeups, (double)r->b.flush_wakeups, 0);
		hist_rows(f, "flush lock", &r->a.flush_lock, &r->b.flush_lock);
		hist_rows(f, "per-CPU lock", &r->a.percpu_lock, &r->b.percpu_lock);
		hist_rows(f, "update path", &r->a.percpu_update_lock, &r->b.percpu_update_lock);
	}
	fprintf(f, "(change: the ops/s row's is the verdict's estimator, %s; the other rows' are B/A of the medians)\n",
		r->paired ? "the geometric mean of the per-round ratios B/A (paired)"
			  : "B/A of the medians (--independent)");
	fputs("\nruns, ops/s in round order:\n", f);
	for (int side = 0; side < 2; side++) {
		const struct slt_validate_side *s = side ? &r->b : &r->a;
		fprintf(f, "  %c:", side ? 'B' : 'A');
		for (unsigned i = 0; i < r->rounds; i++)
			fprintf(f, " %.0f", s->ops_per_s[i]);
		fputc('\n', f);
	}
	fprintf(f, "\nco-scheduling: >= 2 updaters ran at once: A median %.1f%% (min %.1f%%), "
		"B median %.1f%% (min %.1f%%) of each run; CPU time / wall per updater: A %.2f, B %.2f; "
		"%u distinct CPUs pinned of %u allowed; floor %.0f%%\n"
		"rounds kept: %u of %u (both runs at or over the floor; the ops/s medians, intervals and "
		"verdict are %s)\n",
		100.0 * r->a.median_overlap, 100.0 * r->a.min_overlap, 100.0 * r->b.median_overlap,
		100.0 * r->b.min_overlap, r->a.cpu_share, r->b.cpu_share, r->distinct_cpus,
		r->allowed_cpus, 100.0 * r->min_overlap, r->kept_rounds, r->rounds,
		r->kept_rounds >= SLT_VALIDATE_MIN_KEPT_ROUNDS ? "of these rounds"
		: "of all rounds, for information: too few kept");
	char oci[80], reason[400];
	fmt_interval(ci, sizeof(ci), vci, true);
	fmt_interval(oci, sizeof(oci), other, true);
	static const char paired_what[] = "per-round B/A, geometric mean";
	static const char paired_how[] = "Student t on the log ratios of the rounds (paired)";
	static const char ind_how[] = "percentile bootstrap, A's and B's runs resampled independently";
	fprintf(f, "\nverdict: %s: %s %.4f, %.0f%% CI %s (%s",
		slt_verdict_name(r->verdict), r->paired ? paired_what : "B/A of the medians",
		vci->ratio, vci->level * 100.0, ci, r->paired ? paired_how : ind_how);
	if (!r->paired)
		fprintf(f, ", %u resamples, seed %#llx", vci->resamples, (unsigned long long)vci->seed);
	fputs(")\n", f);
	fprintf(f, "%s: %s %.4f, %.0f%% CI %s (not the verdict's)\n",
		r->paired ? "independent" : "paired",
		r->paired ? "B/A of the medians" : paired_what,
		other->ratio, other->level * 100.0, oci);
	if (no_verdict_reason(r, e, reason, sizeof(reason))[0])
		fprintf(f, "no verdict: %s\n", reason);
	if (l->program) {
		const struct slt_program_result *pg = l->program;
		char wc[32], wi[80], cc[32], ci2[80];
		pct(wc, sizeof(wc), pg->wall_ci.ratio);
		fmt_interval(wi, sizeof(wi), &pg->wall_ci, false);
		pct(cc, sizeof(cc), pg->cpu_ci.ratio);
		fmt_interval(ci2, sizeof(ci2), &pg->cpu_ci, false);
		fprintf(f, "\nprogram (your command, %u round%s ABBA, built with and without the proposal): %s\n",
			pg->rounds, pg->rounds == 1 ? "" : "s", l->program_run ? l->program_run : "");
		fprintf(f, "%-22s %16s %16s %16s   %-20s %s\n", "", "base", "with fix", "speed (paired)", "95% CI", "verdict");
		fprintf(f, "%-22s %16.4f %16.4f %16s   %-20s %s\n", "wall s (median)", pg->median_wall_a,
			pg->median_wall_b, wc, wi, slt_verdict_name(pg->verdict));
		fprintf(f, "%-22s %16.4f %16.4f %16s   %-20s (not the verdict's)\n", "CPU s (median)",
			pg->median_cpu_a, pg->median_cpu_b, cc, ci2);
		fputs("(speed: geometric mean of the per-round ratios of 1/time, B/A; above 0% B runs faster)\n", f);
		if (pg->per_thread)
			fprintf(f, "co-scheduling (each thread's CPU time sampled every 5 ms): CPUs busy A %.2f, B %.2f; "
				">= 2 threads ran at once %.0f..%.0f%% (A) / %.0f..%.0f%% (B) of the wall time "
				"(%u CPU%s allowed; the samples saw %.0f%% / %.0f%% of the CPU time)\n",
				pg->cpu_per_wall_a, pg->cpu_per_wall_b, 100.0 * pg->overlap_min_a, 100.0 * pg->overlap_max_a,
				100.0 * pg->overlap_min_b, 100.0 * pg->overlap_max_b, pg->cpus, pg->cpus == 1 ? "" : "s",
				100.0 * pg->sampled_cpu_a, 100.0 * pg->sampled_cpu_b);
		else
			fprintf(f, "co-scheduling (from CPU s / wall s; per-thread times not readable in /proc): "
				"CPUs busy A %.2f, B %.2f; >= 2 threads ran at once at least %.0f%% / %.0f%% of the "
				"wall time (%u CPU%s allowed)\n",
				pg->cpu_per_wall_a, pg->cpu_per_wall_b, 100.0 * pg->overlap_min_a,
				100.0 * pg->overlap_min_b, pg->cpus, pg->cpus == 1 ? "" : "s");
		if (pg->per_thread)
			fprintf(f, "rounds kept: %u of %u (both runs' threads possibly at once >= %.0f%% of the wall "
				"time; the medians, intervals and verdict are %s)\n", pg->kept_rounds, pg->rounds,
				100.0 * pg->min_overlap, pg->kept_rounds >= SLT_VALIDATE_MIN_KEPT_ROUNDS ?
				"of these rounds" : "of all rounds, for information: too few kept");
		if (pg->low_overlap)
			fprintf(f, "no verdict for your program: its threads ran at once at most %.0f%% (A) / %.0f%% (B) "
				"of the wall time (medians), under the %.0f%% needed (--min-overlap) in both runs of "
				"%u rounds or more (%u of %u had it): false sharing shows only while threads run at "
				"once; give the run free CPUs\n",
				100.0 * pg->overlap_max_a, 100.0 * pg->overlap_max_b, 100.0 * pg->min_overlap,
				SLT_VALIDATE_MIN_KEPT_ROUNDS, pg->kept_rounds, pg->rounds);
		if (!pg->low_overlap && pg->cpu_per_wall_a < 1.05 && pg->cpu_per_wall_b < 1.05)
			fputs("  the program used about one CPU at a time: its threads did not measurably run at once, "
			      "and false sharing between them cannot show in these figures\n", f);
		for (int side = 0; side < 2; side++) {
			fprintf(f, "  %c wall s:", side ? 'B' : 'A');
			for (unsigned i = 0; i < pg->rounds; i++)
				fprintf(f, " %.4f", side ? pg->wall_b[i] : pg->wall_a[i]);
			fputc('\n', f);
		}
	}
	if (l->sensitivity) {
		const struct slt_sensitivity *sn = l->sensitivity;
		fprintf(f, "\nsensitivity (the same runs with one knob moved): %s\n",
			!sn->judged ? "no judgement (no verdict at the main point or any other)"
			: sn->robust ? "robust: every change has the main result's sign"
				   : "not robust: the sign of the change depends on a knob the model does not measure");
		if (sn->skipped)
			fprintf(f, "  skipped: %s\n", sn->skipped);
		for (size_t i = 0; i < sn->n; i++) {
			const struct slt_sensitivity_point *pt = &sn->point[i];
			char pc[32], iv[80], what[48];
			pct(pc, sizeof(pc), pt->ci.ratio);
			fmt_interval(iv, sizeof(iv), &pt->ci, false);
			if (!strcmp(pt->knob, "batch"))
				snprintf(what, sizeof(what), "batch %.0f", pt->value);
			else
				snprintf(what, sizeof(what), "%s x%g", pt->knob, pt->value);
			fprintf(f, "  %-18s %8s  %-20s %-20s (overlap A %.0f%%, B %.0f%%)\n", what, pc, iv,
				slt_verdict_name(pt->verdict), 100.0 * pt->overlap_a, 100.0 * pt->overlap_b);
		}
	}
	return ferror(f) ? SLT_EIO : 0;
}

#define U(v) json_integer((json_int_t)(v))

/* A number, or null where the figure is not finite (no latency sample). */
static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A nanosecond figure rounded to 1 decimal. */
static json_t *ns1(double v)
{
	return isfinite(v) ? json_real(round(v * 10.0) / 10.0) : json_null();
}

static json_t *roles_json(const struct slt_engine_bound *b, bool *bad)
{
	json_t *a = json_array();
	for (size_t k = 0; b && k < b->n_roles; k++)
		slt_json_push(a, json_pack("{s:s,s:s,s:I,s:I}", "member", b->roles[k].member,
					   "role", slt_engine_role_name(b->roles[k].role),
					   "offset", (json_int_t)b->roles[k].offset,
					   "size", (json_int_t)b->roles[k].size), bad);
	return a;
}

static json_t *hist_json(const struct slt_engine_hist *h, bool *bad)
{
	json_t *o = json_object(), *b = json_object();
	slt_json_set(o, "holds", U(h->holds), bad);
	slt_json_set(o, "sum_ns", U(h->sum_ns), bad);
	slt_json_set(o, "max_ns", U(h->max_ns), bad);
	slt_json_set(o, "preempted", U(h->preempted), bad);
	slt_json_set(o, "preempted_max_ns", U(h->preempted_max_ns), bad);
	for (unsigned i = 0; i < SLT_ENGINE_HIST_BUCKETS; i++)
		slt_json_set(b, slt_engine_hist_label(i), U(h->count[i]), bad);
	slt_json_set(o, "buckets_us", b, bad);
	return o;
}

static json_t *side_json(const struct slt_validate_side *s,
			 enum slt_engine_mode m, bool *bad)
{
	json_t *o = json_object();
	slt_json_set(o, "latency_of", json_string(slt_engine_lat_what(m)), bad);
	slt_json_set(o, "lat_p50_ns", ns1(s->lat_p50_ns), bad);
	slt_json_set(o, "lat_p90_ns", ns1(s->lat_p90_ns), bad);
	slt_json_set(o, "lat_p99_ns", ns1(s->lat_p99_ns), bad);
	slt_json_set(o, "lat_p999_ns", ns1(s->lat_p999_ns), bad);
	slt_json_set(o, "flushes", U(s->flushes), bad);
	slt_json_set(o, "batch_crossings", U(s->batch_crossings), bad);
	slt_json_set(o, "flush_wakeups", U(s->flush_wakeups), bad);
	slt_json_set(o, "seconds", num(s->seconds), bad);
	slt_json_set(o, "flush_lock", hist_json(&s->flush_lock, bad), bad);
	slt_json_set(o, "percpu_lock", hist_json(&s->percpu_lock, bad), bad);
	slt_json_set(o, "percpu_update_lock", hist_json(&s->percpu_update_lock, bad), bad);
	return o;
}

static json_t *layout_json(const char *file, const char *what, uint64_t size,
			   bool *bad)
{
	json_t *o = json_object();
	slt_json_set(o, "file", json_string(file), bad);
	slt_json_set(o, "what", json_string(what), bad);
	slt_json_set(o, "size", U(size), bad);
	return o;
}

static json_t *runs_json(const double *v, unsigned n, bool *bad)
{
	json_t *arr = json_array();
	for (unsigned i = 0; i < n; i++)
		slt_json_push(arr, num(v[i]), bad);
	return arr;
}

int slt_validate_write_json(FILE *f, const struct slt_validate_result *r,
			    const struct slt_validate_labels *l,
			    const struct slt_validate_opts *o, bool pretty,
			    struct slt_error *err)
{
	const struct slt_engine_opts *e = &o->engine;
	bool bad = false;
	json_t *root = json_object();
	slt_json_set(root, "schema", json_string(SLT_SCHEMA_VALIDATE), &bad);
	slt_json_set(root, "struct", json_string(l->struct_name), &bad);
	slt_json_set(root, "cacheline_size", U(l->cacheline_size), &bad);
	slt_json_set(root, "a", layout_json(l->a_file, l->a_what, l->a_size, &bad), &bad);
	slt_json_set(root, "b", layout_json(l->b_file, l->b_what, l->b_size, &bad), &bad);
	if (l->basis)
		slt_json_set(root, "basis", json_string(l->basis), &bad);
	if (l->pattern)
		slt_json_set(root, "pattern", json_string(l->pattern), &bad);

	json_t *op = json_object();
	slt_json_set(op, "mode", json_string(mode_name(r->mode)), &bad);
	slt_json_set(op, "rounds", U(r->rounds), &bad);
	slt_json_set(op, "seconds", num(e->seconds), &bad);
	slt_json_set(op, "warmup_seconds", num(o->warmup_seconds), &bad);
	slt_json_set(op, "threads", U(r->threads), &bad);
	/* the stats engine's own options: null in replay mode */
	bool stats = r->mode == SLT_ENGINE_STATS;
	slt_json_set(op, "batch", stats ? U(e->batch) : json_null(), &bad);
	slt_json_set(op, "flush", stats ? json_string(slt_engine_flush_name(slt_engine_flush_of(e))) : json_null(), &bad);
	slt_json_set(op, "depth", stats ? U(e->depth) : json_null(), &bad);
	slt_json_set(op, "fanout", stats ? U(e->fanout) : json_null(), &bad);
	slt_json_set(op, "write_every", stats ? U(e->write_every) : json_null(), &bad);
	slt_json_set(op, "seed", U(e->seed), &bad);
	slt_json_set(op, "pin", json_boolean(e->pin), &bad);
	slt_json_set(op, "realtime", json_boolean(e->realtime), &bad);
	slt_json_set(op, "order", json_string("ABBA"), &bad);
	slt_json_set(op, "paired", json_boolean(r->paired), &bad);
	slt_json_set(root, "options", op, &bad);
	if (stats)
		slt_json_set(root, "stats", slt_engine_mode_json(r->stats_mode, &r->counters, r->spin_locks, e, &bad),
			     &bad);

	json_t *runs = json_object();
	slt_json_set(runs, "a", runs_json(r->a.ops_per_s, r->rounds, &bad), &bad);
	slt_json_set(runs, "b", runs_json(r->b.ops_per_s, r->rounds, &bad), &bad);
	slt_json_set(root, "runs", runs, &bad);
	json_t *med = json_object();
	slt_json_set(med, "a", num(r->a.median_ops_per_s), &bad);
	slt_json_set(med, "b", num(r->b.median_ops_per_s), &bad);
	slt_json_set(root, "median_ops_per_s", med, &bad);
	/* v1: ratio and change_percent are the medians' (kept); the
	 * explicit names below say which estimator is which */
	slt_json_set(root, "ratio", num(r->ci.ratio), &bad);
	slt_json_set(root, "change_percent", num((r->ci.ratio - 1.0) * 100.0), &bad);
	slt_json_set(root, "medians_ratio", num(r->ci.ratio), &bad);
	slt_json_set(root, "medians_change_percent", num((r->ci.ratio - 1.0) * 100.0), &bad);
	slt_json_set(root, "paired_ratio", num(r->ci_paired.ratio), &bad);
	slt_json_set(root, "paired_change_percent", num((r->ci_paired.ratio - 1.0) * 100.0), &bad);
	const struct slt_ratio_ci *vci = r->paired ? &r->ci_paired : &r->ci;
	json_t *hl = json_object();
	slt_json_set(hl, "estimator", json_string(r->paired ?
		"geometric mean of the per-round ratios B/A (paired)" : "B/A of the medians"), &bad);
	slt_json_set(hl, "from", json_string(r->paired ? "ci_paired" : "ci"), &bad);
	slt_json_set(hl, "ratio", num(vci->ratio), &bad);
	slt_json_set(hl, "percent", num((vci->ratio - 1.0) * 100.0), &bad);
	slt_json_set(root, "change", hl, &bad);

	json_t *ci = json_object();
	slt_json_set(ci, "level", num(r->ci.level), &bad);
	slt_json_set(ci, "lo", num(r->ci.lo), &bad);
	slt_json_set(ci, "hi", num(r->ci.hi), &bad);
	slt_json_set(ci, "lo_percent", num((r->ci.lo - 1.0) * 100.0), &bad);
	slt_json_set(ci, "hi_percent", num((r->ci.hi - 1.0) * 100.0), &bad);
	slt_json_set(ci, "method", json_string("percentile bootstrap"), &bad);
	slt_json_set(ci, "resamples", U(r->ci.resamples), &bad);
	slt_json_set(ci, "seed", U(r->ci.seed), &bad);
	slt_json_set(root, "ci", ci, &bad);
	json_t *cp = json_object();
	slt_json_set(cp, "level", num(r->ci_paired.level), &bad);
	slt_json_set(cp, "ratio", num(r->ci_paired.ratio), &bad);
	slt_json_set(cp, "lo", num(r->ci_paired.lo), &bad);
	slt_json_set(cp, "hi", num(r->ci_paired.hi), &bad);
	slt_json_set(cp, "lo_percent", num((r->ci_paired.lo - 1.0) * 100.0), &bad);
	slt_json_set(cp, "hi_percent", num((r->ci_paired.hi - 1.0) * 100.0), &bad);
	slt_json_set(cp, "method", json_string("paired Student t on log ratios"), &bad);
	slt_json_set(cp, "df", U(r->rounds ? r->rounds - 1 : 0), &bad);
	/* kept from the bootstrap form (v1 keys are never dropped): 0 */
	slt_json_set(cp, "resamples", U(r->ci_paired.resamples), &bad);
	slt_json_set(cp, "seed", U(r->ci_paired.seed), &bad);
	slt_json_set(root, "ci_paired", cp, &bad);
	slt_json_set(root, "verdict_from", json_string(r->paired ? "ci_paired" : "ci"), &bad);
	slt_json_set(root, "verdict", json_string(slt_verdict_name(r->verdict)), &bad);
	char reason[400];
	no_verdict_reason(r, e, reason, sizeof(reason));
	slt_json_set(root, "reason", reason[0] ? json_string(reason) : json_null(), &bad);
	json_t *ov = json_object();
	slt_json_set(ov, "min", num(r->min_overlap), &bad);
	slt_json_set(ov, "low", json_boolean(r->low_overlap), &bad);
	slt_json_set(ov, "kept_rounds", U(r->kept_rounds), &bad);
	json_t *kept = json_array();
	for (unsigned i = 0; i < r->rounds; i++)
		slt_json_push(kept, json_boolean(r->kept[i]), &bad);
	slt_json_set(ov, "kept", kept, &bad);
	slt_json_set(ov, "allowed_cpus", U(r->allowed_cpus), &bad);
	slt_json_set(ov, "distinct_cpus", U(r->distinct_cpus), &bad);
	for (int side = 0; side < 2; side++) {
		const struct slt_validate_side *sd = side ? &r->b : &r->a;
		json_t *os = json_object();
		slt_json_set(os, "median", num(sd->median_overlap), &bad);
		slt_json_set(os, "min", num(sd->min_overlap), &bad);
		slt_json_set(os, "runs", runs_json(sd->overlap, r->rounds, &bad), &bad);
		slt_json_set(os, "cpu_share", num(sd->cpu_share), &bad);
		slt_json_set(ov, side ? "b" : "a", os, &bad);
	}
	slt_json_set(root, "overlap", ov, &bad);
	if (l->program) {
		const struct slt_program_result *pg = l->program;
		json_t *pj = json_object();
		slt_json_set(pj, "run", l->program_run ? json_string(l->program_run) : json_null(), &bad);
		slt_json_set(pj, "rounds", U(pg->rounds), &bad);
		slt_json_set(pj, "wall_s", json_pack("{s:o,s:o}", "a", runs_json(pg->wall_a, pg->rounds, &bad),
						     "b", runs_json(pg->wall_b, pg->rounds, &bad)), &bad);
		slt_json_set(pj, "cpu_s", json_pack("{s:o,s:o}", "a", runs_json(pg->cpu_a, pg->rounds, &bad),
						    "b", runs_json(pg->cpu_b, pg->rounds, &bad)), &bad);
		slt_json_set(pj, "median_wall_s", json_pack("{s:o,s:o}", "a", num(pg->median_wall_a),
							    "b", num(pg->median_wall_b)), &bad);
		slt_json_set(pj, "median_cpu_s", json_pack("{s:o,s:o}", "a", num(pg->median_cpu_a),
							   "b", num(pg->median_cpu_b)), &bad);
		slt_json_set(pj, "build_s", json_pack("{s:o,s:o}", "a", num(pg->build_a_s),
						      "b", num(pg->build_b_s)), &bad);
		for (int k = 0; k < 2; k++) {
			const struct slt_ratio_ci *c = k ? &pg->cpu_ci : &pg->wall_ci;
			slt_json_set(pj, k ? "cpu_speed" : "wall_speed",
				     json_pack("{s:o,s:o,s:o,s:o}", "ratio", num(c->ratio), "lo", num(c->lo),
					       "hi", num(c->hi), "level", num(c->level)), &bad);
		}
		slt_json_set(pj, "verdict", json_string(slt_verdict_name(pg->verdict)), &bad);
		slt_json_set(pj, "kept_rounds", U(pg->kept_rounds), &bad);
		json_t *pk = json_array();
		for (unsigned i = 0; i < pg->rounds; i++)
			slt_json_push(pk, json_boolean(pg->kept[i]), &bad);
		slt_json_set(pj, "kept", pk, &bad);
		slt_json_set(pj, "co_scheduling",
			     json_pack("{s:{s:o,s:o},s:{s:o,s:o},s:I,s:s,s:{s:o,s:o},s:{s:o,s:o},s:o,s:b}",
				       "cpu_per_wall", "a", num(pg->cpu_per_wall_a), "b", num(pg->cpu_per_wall_b),
				       "overlap_at_least", "a", num(pg->overlap_min_a), "b", num(pg->overlap_min_b),
				       "cpus", (json_int_t)pg->cpus,
				       "method", pg->per_thread ? "per-thread" : "cpu/wall",
				       "overlap_at_most", "a", num(pg->overlap_max_a), "b", num(pg->overlap_max_b),
				       "sampled_cpu", "a", num(pg->sampled_cpu_a), "b", num(pg->sampled_cpu_b),
				       "min_overlap", num(pg->min_overlap), "low_overlap", pg->low_overlap), &bad);
		slt_json_set(root, "program", pj, &bad);
	}
	if (l->sensitivity) {
		json_t *sj = json_object(), *pts = json_array();
		slt_json_set(sj, "robust", l->sensitivity->judged ? json_boolean(l->sensitivity->robust)
				: json_null(), &bad);
		slt_json_set(sj, "skipped", l->sensitivity->skipped ? json_string(l->sensitivity->skipped)
				: json_null(), &bad);
		for (size_t i = 0; i < l->sensitivity->n; i++) {
			const struct slt_sensitivity_point *pt = &l->sensitivity->point[i];
			json_t *po = json_object();
			slt_json_set(po, "knob", json_string(pt->knob), &bad);
			slt_json_set(po, "value", num(pt->value), &bad);
			slt_json_set(po, "ratio", num(pt->ci.ratio), &bad);
			slt_json_set(po, "lo", num(pt->ci.lo), &bad);
			slt_json_set(po, "hi", num(pt->ci.hi), &bad);
			slt_json_set(po, "verdict", json_string(slt_verdict_name(pt->verdict)), &bad);
			slt_json_set(po, "overlap_a", num(pt->overlap_a), &bad);
			slt_json_set(po, "overlap_b", num(pt->overlap_b), &bad);
			slt_json_push(pts, po, &bad);
		}
		slt_json_set(sj, "points", pts, &bad);
		slt_json_set(root, "sensitivity", sj, &bad);
	}
	json_t *roles = json_object();
	slt_json_set(roles, "a", roles_json(l->a_roles, &bad), &bad);
	slt_json_set(roles, "b", roles_json(l->b_roles, &bad), &bad);
	slt_json_set(root, "roles", roles, &bad);
	char diff[1024] = "";
	if (l->a_roles && l->b_roles)
		slt_engine_bound_diff(l->a_roles, l->b_roles, diff, sizeof(diff));
	slt_json_set(root, "roles_differ", diff[0] ? json_string(diff) : json_null(), &bad);

	json_t *sides = json_object();
	slt_json_set(sides, "a", side_json(&r->a, r->mode, &bad), &bad);
	slt_json_set(sides, "b", side_json(&r->b, r->mode, &bad), &bad);
	slt_json_set(root, "sides", sides, &bad);
	return slt_json_write(f, root, bad, pretty, "the JSON validate result", err);
}
