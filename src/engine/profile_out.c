/* SPDX-License-Identifier: MIT */
/*
 * The engine's exact access counts as a structlint.profile/v1 document
 * (include/structlint/profile.h writer): the known truth the join,
 * classification and advice can be checked against.
 */
#include "engine/engine_int.h"
#include "structlint/profile.h"

int slt_engine_write_profile(const struct slt_engine_result *r,
			     const struct slt_engine_bound *b, FILE *f,
			     const char *name, struct slt_error *err)
{
	if (!r->access || r->n_roles != b->n_roles)
		return slt_error_set(err, SLT_EUSAGE, name, -1, "run the engine with access counting on",
				     "the engine result has no access counts for these roles");
	struct slt_profile_writer *w = NULL;
	struct slt_profile_writer_opts wo = {
		.cacheline_size = b->cacheline_size,
		.tool = "structlint engine (exact access counts)",
		.pretty = true,
	};
	int rc = slt_profile_writer_new(f, name, &wo, &w, err);
	if (rc)
		return rc;
	for (unsigned t = 0; t < r->n_access_threads; t++)
		for (size_t k = 0; k < b->n_roles; k++) {
			const struct slt_engine_bound_role *br = &b->roles[k];
			const struct slt_engine_access *a = &r->access[(size_t)t * b->n_roles + k];
			uint64_t lines = br->last_line - br->first_line + 1;
			if (!a->loads && !a->stores)
				continue;
			if (br->width) {   /* a measured access: its offset and width */
				struct slt_sample x = {
					.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_CPU,
					.type_name = b->struct_name, .type_offset = br->offset,
					.access_size = br->width,
					.cpu = (int32_t)t, .pid = -1, .tid = -1, .node = -1,
					.loads = a->loads, .stores = a->stores,
				};
				if ((rc = slt_profile_writer_add(w, &x)))
					goto fail;
				continue;
			}
			/* every access touches each of the role's lines once */
			struct slt_sample s = {
				.flags = SLT_SAMPLE_TYPE | SLT_SAMPLE_CPU,
				.type_name = b->struct_name,
				.cpu = (int32_t)t, .pid = -1, .tid = -1, .node = -1,
				.loads = a->loads / lines, .stores = a->stores / lines,
			};
			for (uint64_t l = br->first_line; l <= br->last_line && !rc; l++) {
				uint64_t start = l * b->cacheline_size;
				s.type_offset = start > br->offset ? start : br->offset;
				if (lines == 1) {
					s.flags |= SLT_SAMPLE_MEMBER;
					s.member = br->member;
				}
				rc = slt_profile_writer_add(w, &s);
			}
			if (rc)
				goto fail;
		}
	return slt_profile_writer_finish(w, err);
fail:
	slt_profile_writer_free(w);
	return slt_error_set(err, rc, name, -1, NULL, "cannot build the engine profile");
}
