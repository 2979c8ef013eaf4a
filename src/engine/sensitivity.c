/* SPDX-License-Identifier: MIT */
/*
 * Sensitivity of a validation (include/structlint/validate.h): the same
 * A/B runs with the knobs the model cannot measure moved (the hot-write
 * rate, the flush batch), and whether the change keeps its sign.
 */
#include <stdlib.h>
#include <string.h>

#include "structlint/validate.h"

/* A copy of b whose hot-write roles store `factor` times as often (the
 * roles array copied, everything else borrowed; free only ->roles). */
static int scaled(const struct slt_engine_bound *b, double factor,
		  struct slt_engine_bound *out)
{
	*out = *b;
	struct slt_engine_bound_role *r = calloc(b->n_roles + 1, sizeof(*r));
	if (!r)
		return -1;
	memcpy(r, b->roles, b->n_roles * sizeof(*r));
	/* relative rates in whole numbers: the loads x4, the stores
	 * x4 x factor (factor 0.25 or 4) */
	uint64_t sf = (uint64_t)(4.0 * factor + 0.5);
	for (size_t k = 0; k < b->n_roles; k++) {
		if (r[k].role == SLT_ROLE_HOT_WRITE)
			r[k].stores *= sf ? sf : 1;
		else
			r[k].loads *= 4;
	}
	out->roles = r;
	return 0;
}

static bool has_hot_write(const struct slt_engine_bound *b)
{
	for (size_t k = 0; k < b->n_roles; k++)
		if (b->roles[k].role == SLT_ROLE_HOT_WRITE)
			return true;
	return false;
}

static double sign(double x)
{
	return (x > 0) - (x < 0);
}

int slt_validate_sensitivity(const struct slt_engine_bound *a,
			     const struct slt_engine_bound *b,
			     const struct slt_validate_opts *opts,
			     const struct slt_validate_result *r,
			     struct slt_sensitivity *out, struct slt_error *err)
{
	memset(out, 0, sizeof(*out));
	bool stats = a->mode == SLT_ENGINE_STATS;
	static const double rate[2] = { 0.25, 4.0 };
	static const unsigned batch[2] = { 32, 128 };
	const struct slt_ratio_ci *main_ci = r->paired ? &r->ci_paired : &r->ci;
	out->robust = true;
	bool hot = has_hot_write(a) || has_hot_write(b), verdicts = r->verdict != SLT_VERDICT_NONE;
	if (!hot)
		out->skipped = "write rate (no hot-write member: the run is the update and flush paths only)";
	for (int i = hot ? 0 : 2; i < 4; i++) {
		struct slt_validate_opts o = *opts;
		struct slt_engine_bound sa, sb;
		bool copy = false;
		struct slt_sensitivity_point *pt = &out->point[out->n];
		if (i < 2) {
			pt->knob = "write rate";
			pt->value = rate[i];
			if (stats) {
				double we = (double)opts->engine.write_every / rate[i];
				o.engine.write_every = we < 1 ? 1 : (unsigned)we;
				if (o.engine.write_every == opts->engine.write_every)
					continue;
			} else {
				if (scaled(a, rate[i], &sa))
					return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
				if (scaled(b, rate[i], &sb)) {
					free(sa.roles);
					return slt_error_set(err, SLT_ENOMEM, NULL, -1, NULL, "out of memory");
				}
				copy = true;
			}
		} else {
			if (!stats || batch[i - 2] == opts->engine.batch)
				continue;
			pt->knob = "batch";
			pt->value = batch[i - 2];
			o.engine.batch = batch[i - 2];
		}
		struct slt_validate_result *v = NULL;
		int rc = slt_validate_run(copy ? &sa : a, copy ? &sb : b, &o, NULL, NULL, &v, err);
		if (copy) {
			free(sa.roles);
			free(sb.roles);
		}
		if (rc)
			return rc;
		pt->ci = v->paired ? v->ci_paired : v->ci;
		pt->verdict = v->verdict;
		verdicts |= v->verdict != SLT_VERDICT_NONE;
		pt->overlap_a = v->a.median_overlap;
		pt->overlap_b = v->b.median_overlap;
		if (sign(pt->ci.ratio - 1.0) != sign(main_ci->ratio - 1.0))
			out->robust = false;
		slt_validate_result_free(v);
		out->n++;
	}
	out->judged = verdicts;
	return 0;
}
