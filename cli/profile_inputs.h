/*
 * profile_inputs: the profile files named on a command line (folded,
 * speedscope or pprof; "-" is stdin), read and summed into one profile
 * (`cli report`, `cli merge`), reporting what went wrong as one `error:`
 * line and its exit status.
 */
#ifndef CLI_PROFILE_INPUTS_H
#define CLI_PROFILE_INPUTS_H

#include <stddef.h>

#include "profile/profile.h"

/*
 * Initializes `sum` and adds every file to it. Returns 0 or an exit
 * status; `sum` is to be freed with profile_free either way.
 */
int profile_inputs_read(char *const *paths, size_t n, struct profile *sum);

#endif
