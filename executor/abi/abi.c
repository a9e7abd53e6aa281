/*
 * abi: the table of ABIs --zkvm names.
 */
#include "executor/abi/abi.h"

#include <string.h>

static const struct abi *const all[] = {&abi_linux, &abi_sp1,    &abi_risc0,    &abi_lambda,
                                        &abi_nexus, &abi_openvm, &abi_zisk,     &abi_jolt,
                                        &abi_pico,  &abi_ceno,   &abi_airbender};

const struct abi *abi_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

const char *abi_names(void)
{
    return "linux, sp1, risc0, lambda, nexus, openvm, zisk, jolt, pico, ceno, airbender";
}
