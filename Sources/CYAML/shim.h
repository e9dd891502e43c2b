#ifndef CATALOGCHECK_CYAML_SHIM_H
#define CATALOGCHECK_CYAML_SHIM_H

// libyaml's event parser (Debian's libyaml-dev): the config, rules file and baseline YAML readers pull
// events from it and build their own nodes.
#include <yaml.h>

#endif
