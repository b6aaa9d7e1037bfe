# Superstep - GNU Make build.
#   make                    library, tools, examples, superstep.pc
#   make WERROR=1           the same, warnings as errors (CI, development)
#   make test               build and run the test suite
#   make test SANITIZE=1    the same under AddressSanitizer + UBSan
#   make bench              the benchmark table (bench/)
#   make bench-peers        bench/ programs beside MulticoreBSP and BSPonMPI
#                           (MCBSP=PREFIX BSPONMPI=PREFIX, or PEERS=DIR)
#   make bench-cluster      bench/ programs across 2 nodes of the test bed
#                           beside plain MPI and BSPonMPI (root; bench/cluster)
#   make install PREFIX=... install headers, libraries, tools, man pages,
#                           pkg-config file and CMake package
#   make uninstall PREFIX=... remove what install put there
#
# Sources are found by wildcard: a new .c file in src/<layer>/ joins the
# library, one in tests/<suite>/ becomes a test, one in examples/ an example.

PREFIX   ?= /usr/local
CC       ?= cc
OPT      ?= -O2
SANITIZE ?=

# TSAN=1: ThreadSanitizer; `make test TSAN=1` runs tests/tsan, where the
# channel, the barrier and the word waits run with threads as processors
# (TSan sees threads, not the processes of a job).
TSAN     ?=
ifeq ($(SANITIZE),1)
O        := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else ifeq ($(TSAN),1)
O        := build/tsan
SANFLAGS := -fsanitize=thread
else
O        := build/rel
SANFLAGS :=
endif

# Release outputs live in lib/ and bin/; sanitizer outputs stay under build/.
ifneq ($(SANITIZE)$(TSAN),)
LIBDIR := $(O)/lib
BINDIR := $(O)/bin
else
LIBDIR := lib
BINDIR := bin
endif

# Warnings stop the build only with WERROR=1 (CI and changes to Superstep:
# .ci/run sets it): another compiler's new warnings must not break a
# user's build.
WERROR   ?=
WARN     := -Wall -Wextra $(if $(filter 1,$(WERROR)),-Werror)
COMMA    := ,
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) -g $(WARN) $(SANFLAGS) -Iinclude $(CFLAGS)
LDLIBS_ALL = -lpthread -lm -ldl $(LDLIBS)

# MPI: the mpi device is a plug-in, $(LIBDIR)/superstep/device-mpi.so
# (src/mpi), built when an MPI compiler wrapper is found (MPICC=mpicc by
# default; MPI=0 builds without it), with the wrapper's compile and link
# flags (Open MPI --showme, MPICH -*_info).  The libraries, the tools and
# the programs never link libmpi: the plug-in does, and the libraries load
# it when the mpi device is chosen.  $(O)/config records the choice:
# objects are rebuilt when it changes, tests/run reads it.
MPICC ?= mpicc
MPI   ?= auto
MPI_ON :=
ifneq ($(MPI),0)
ifneq ($(shell command -v $(MPICC) 2>/dev/null),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null)
ifeq ($(strip $(MPI_LIBS)),)
MPI_CFLAGS := $(filter -I% -D% -pthread,$(shell $(MPICC) -compile_info 2>/dev/null))
MPI_LIBS   := $(filter -L% -l% -Wl% -pthread,$(shell $(MPICC) -link_info 2>/dev/null))
endif
ifneq ($(strip $(MPI_LIBS)),)
MPI_ON := 1
endif
endif
endif
ifeq ($(MPI_ON),1)
# bspcc passes the chosen MPI's include folders on (a program that includes
# mpi.h must get that MPI's, not the system's default one).
MPI_INC    := $(filter -I%,$(MPI_CFLAGS))
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(MPI_CFLAGS))
else
MPI_LIBS   :=
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(info superstep: building without MPI support ($(if $(filter 0,$(MPI)),MPI=0,no $(MPICC) found)))
endif
endif
# The chosen MPI's own launcher (mpicc.mpich: mpirun.mpich; a wrapper in
# another folder: the mpirun beside it) and kind, for tests/run.
ifeq ($(MPI_ON),1)
MPI_LAUNCHER := $(shell w=$$(command -v $(MPICC)); d=$${w%/*}; s=$$(basename "$$w" | sed 's/^mpicc//'); \
	for l in mpirun$$s mpiexec$$s mpirun mpiexec; do [ -x "$$d/$$l" ] && { echo "$$d/$$l"; break; }; done)
MPI_KIND := $(if $(shell $(MPICC) --showme:version 2>/dev/null),openmpi,mpich)
# MPICH's MPI_STATUSES_IGNORE is a made-up pointer, which gcc takes for an
# array of size 0 in MPI_Waitall.
ifeq ($(MPI_KIND),mpich)
MPI_CFLAGS += -Wno-stringop-overflow
endif
endif
BUILD_CONFIG := mpi=$(if $(MPI_ON),yes,no) $(if $(MPI_ON),mpirun=$(MPI_LAUNCHER) mpikind=$(MPI_KIND) mpicc=$(MPICC))
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(shell mkdir -p $(O) && { [ "$$(cat $(O)/config 2>/dev/null)" = "$$(printf '%s\n' $(BUILD_CONFIG))" ] || printf '%s\n' $(BUILD_CONFIG) > $(O)/config; })
endif

# The mpi plug-in: src/mpi, every source that calls MPI and those only they
# use (lines.c), built with -DSUPERSTEP_PLUGIN into a shared object
# that exports three symbols (src/mpi/plugin.h).  They reach the core
# through one struct of its services (struct plugin_services, filled by
# src/plugin/load.c).  PLUGIN_ABI, a checksum of every header, tells the
# core a plug-in built from other sources.
PLUGIN_MPI_SRC := $(wildcard src/mpi/*.c)
PLUGIN_MPI_OBJ := $(patsubst %.c,$(O)/plugin/%.o,$(PLUGIN_MPI_SRC))
PLUGIN_DIR := $(LIBDIR)/superstep
PLUGIN_MPI := $(PLUGIN_DIR)/device-mpi.so
PLUGIN_MAP := $(O)/plugin.map
PLUGIN_ABI := $(shell cat $(sort $(wildcard include/*.h src/*/*.h)) | cksum | cut -d' ' -f1)
PLUGIN_CFLAGS := -DSUPERSTEP_PLUGIN_ABI=$(PLUGIN_ABI)u

LIB_SRC  := $(filter-out $(PLUGIN_MPI_SRC),$(wildcard src/*/*.c))
LIB_OBJ  := $(patsubst %.c,$(O)/%.o,$(LIB_SRC))
LIB_A    := $(LIBDIR)/libsuperstep.a
# The shared library is versioned: libsuperstep.so.$(SO_VERSION) carries the
# SONAME libsuperstep.so.$(SO_MAJOR) (programs record that name), and the
# links libsuperstep.so.$(SO_MAJOR) and libsuperstep.so (for -lsuperstep) point
# at it.  VERSION, Superstep's own, is read from bsp.h (SUPERSTEP_VERSION).
VERSION  := $(shell sed -n 's/^\#define SUPERSTEP_VERSION "\(.*\)"/\1/p' include/bsp.h)
SO_MAJOR := 1
SO_VERSION := $(SO_MAJOR).0.0
SO_NAME  := libsuperstep.so.$(SO_MAJOR)
LIB_SO_REAL := $(LIBDIR)/libsuperstep.so.$(SO_VERSION)
LIB_SO   := $(LIBDIR)/libsuperstep.so
# Every object in one plain archive, for the tests and benchmarks that call
# the layers directly (they link what the public library keeps local).
LIB_INTERNAL := $(O)/libsuperstep-internal.a
# How they link it: the profiler and the plug-in loader install themselves
# into the BSP and the device layer by constructors (no layer below names
# them, src/bsp/bsp_impl.h, src/device/device.h), so a plain archive would
# leave them out unless the link asks for them.
INTERNAL_LINK := -Wl,--undefined=profile_observer -Wl,--undefined=plugin_load $(LIB_INTERNAL)

TOOL_SRC := $(wildcard tools/*.c)
TOOLS    := $(patsubst tools/%.c,$(BINDIR)/%,$(TOOL_SRC)) $(BINDIR)/bspcc $(BINDIR)/bspcxx

EX_SRC   := $(wildcard examples/*.c examples/*/*.c)
EXAMPLES := $(patsubst %.c,$(O)/%,$(EX_SRC))

TEST_SRC := $(wildcard tests/*/*.c)
TESTS    := $(patsubst %.c,$(O)/%,$(TEST_SRC))

BENCH_SRC := $(wildcard bench/*.c)
BENCHES  := $(patsubst %.c,$(O)/%,$(BENCH_SRC))

HEADERS  := $(wildcard include/*.h) $(wildcard src/*/*.h) $(O)/config

.PHONY: all test bench bench-peers bench-cluster install uninstall clean examples tests soak
all: $(LIB_A) $(LIB_SO) $(if $(MPI_ON),$(PLUGIN_MPI)) $(TOOLS) $(EXAMPLES) superstep.pc

# SUPERSTEP_LIBRARY: the library's own objects carry no mark of a host
# program (include/host_bsp.h), which a program linked with them would get;
# nor is the mark one of the names the headers declare (header_names).
$(O)/src/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DSUPERSTEP_LIBRARY -fPIC -Isrc -c $< -o $@

# The loader: which plug-ins it accepts, and the folder a program linked
# with this build's libsuperstep.a looks in (make install compiles it
# again for PREFIX/lib/superstep).
$(O)/src/plugin/load.o: CFLAGS_ALL += $(PLUGIN_CFLAGS) -DSUPERSTEP_PLUGIN_DIR_BUILTIN='"$(abspath $(PLUGIN_DIR))"'

$(O)/plugin/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(PLUGIN_CFLAGS) $(MPI_CFLAGS) -DSUPERSTEP_PLUGIN -fPIC -Isrc -c $< -o $@

$(PLUGIN_MAP): Makefile
	@mkdir -p $(dir $@)
	{ echo '{ global: superstep_plugin_version; superstep_plugin_abi; superstep_plugin_entry;'; echo 'local: *; };'; } >$@

# --no-undefined: whatever the plug-in uses of the core goes through the
# services struct (src/mpi/plugin.h), so a name that does not fails here.
$(PLUGIN_MPI): $(PLUGIN_MPI_OBJ) $(PLUGIN_MAP)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -Wl,--no-undefined -Wl,--version-script=$(PLUGIN_MAP) -o $@ $(PLUGIN_MPI_OBJ) \
	    $(MPI_LIBS) -lpthread -lm

# Exports.  The libraries export exactly the functions and variables that
# include/*.h declares, nothing of the layers (job, dev, now_ns, chan_*,
# ...), so a program may use any name of its own.  The list is made by the
# compiler from the public headers: -fdump-ada-spec-slim on each header
# alone writes an Ada binding of what it declares, which names the linker
# name of every function and variable (External_Name), once per dialect in
# EXPORT_VARIANTS, since bsp.h renames functions by macro.  So a new header
# or declaration is exported with no further edit.  Every header must
# compile alone (else the build stops with the compiler's message); a
# dialect variant may only be refused by the header's own #error.  The .so
# takes the list as a version script; the .a is one partial link (ld -r)
# of every object in which objcopy makes every other symbol local.  (Why
# not -fvisibility=hidden and an export macro: see docs/architecture.md.)
EXPORT_VARIANTS := -DSUPERSTEP_MCBSP -DMCBSP_COMPATIBILITY_MODE
EXPORT_LIST := $(O)/exports.list
EXPORT_MAP  := $(O)/exports.map
# $(call header_names,HEADERS,LIST): the names HEADERS declare, into LIST.
header_names = @rm -rf $(2).d && mkdir $(2).d && for h in $(1); do for v in "" $(EXPORT_VARIANTS); do \
	    if ! (cd $(2).d && $(CC) -std=c11 -D_GNU_SOURCE -DSUPERSTEP_LIBRARY -I$(CURDIR)/include $$v -fsyntax-only -fdump-ada-spec-slim \
	            -x c $(CURDIR)/$$h) 2>$(2).d/err; then \
	        if [ -z "$$v" ] || ! grep -q '\#error' $(2).d/err; then \
	            echo "$$h does not compile alone ($${v:-no dialect macro}):" >&2; cat $(2).d/err >&2; exit 1; fi; \
	        continue; \
	    fi; \
	    sed -n 's/.*External_Name => "\([A-Za-z_][A-Za-z0-9_]*\)".*/\1/p' $(2).d/*.ads; rm -f $(2).d/*.ads; \
	done; done >$(2).tmp && sort -u $(2).tmp >$(2).sorted && rm -rf $(2).d $(2).tmp && test -s $(2).sorted && mv $(2).sorted $(2)
$(EXPORT_LIST): $(wildcard include/*.h) Makefile
	@mkdir -p $(dir $@)
	$(call header_names,include/*.h,$@)
# The collectives (bsc.h, bsp_level1.h) are weak in libsuperstep.a: a
# program that brings its own (BSPonMPI's bsc.c beside its tests) links
# with them, as it would against the shared library, instead of meeting
# the archive's copy as a second definition.
COLL_LIST := $(O)/collectives.list
$(COLL_LIST): include/bsc.h include/bsp_level1.h Makefile
	@mkdir -p $(dir $@)
	$(call header_names,include/bsc.h include/bsp_level1.h,$@)
$(EXPORT_MAP): $(EXPORT_LIST)
	{ echo '{ global:'; sed 's/$$/;/' $<; echo 'local: *; };'; } >$@

# $(call static_lib,ARCHIVE,OBJECTS): one partial link, only the exports global
# (the collectives weak).
static_lib = ld -r -o $(1).o $(2) && objcopy --keep-global-symbols=$(EXPORT_LIST) --weaken-symbols=$(COLL_LIST) $(1).o && \
	rm -f $(1) && ar rcs $(1) $(1).o && rm -f $(1).o
$(LIB_A): $(LIB_OBJ) $(EXPORT_LIST) $(COLL_LIST)
	@mkdir -p $(dir $@)
	$(call static_lib,$@,$(LIB_OBJ))

$(LIB_INTERNAL): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJ) $(EXPORT_MAP)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=$(EXPORT_MAP) -o $@ $(LIB_OBJ) $(LDLIBS_ALL)

$(LIB_SO): $(LIB_SO_REAL)
	ln -sf $(notdir $(LIB_SO_REAL)) $(LIBDIR)/$(SO_NAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $@

# Tools may use internal headers (bspbench reads no internals; bsprun does not either).
# bsprun --device mpi starts the launcher of the MPI the plug-in is built with.
$(BINDIR)/bsprun: CFLAGS_ALL += $(if $(MPI_ON),-DSUPERSTEP_HAVE_MPI) \
	$(if $(MPI_LAUNCHER),-DSUPERSTEP_MPI_LAUNCHER='"$(MPI_LAUNCHER)"')
$(BINDIR)/%: tools/%.c $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

# bspprof's and bspbench's header-only parts (tools/prof, tools/bench).
$(BINDIR)/bspprof $(BINDIR)/bspbench $(O)/tests/profile/fit: $(wildcard tools/*/*.h)

# bspcxx is bspcc for C++ (the script looks at the name it was called by).
$(BINDIR)/bspcc $(BINDIR)/bspcxx: tools/bspcc.in $(O)/config include/bsp.h
	@mkdir -p $(dir $@)
	sed -e "s|@SANFLAGS@|$(SANFLAGS)|g" -e "s|@SRCINC@|$(CURDIR)/include|g" \
	    -e "s|@MPILIBS@|$(MPI_LIBS)|g" \
	    -e "s|@MPIINC@|$(MPI_INC)|g" -e "s|@VERSION@|$(VERSION)|g" $< > $@ && chmod +x $@

$(O)/examples/%: examples/%.c $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $< -o $@ $(LIB_A) $(LDLIBS_ALL)

# Tests may include internal headers to test a layer directly.
$(O)/tests/%: tests/%.c $(wildcard tests/*.h tests/*/*.h) $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -Itests $< $(TEST_OBJ) -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

# The mpi device's exchange protocols, bare (bench/mpi/run).
# Open MPI peers of bench/'s figures, written directly in MPI (bench/mpi/peers.c),
# and of mp_bench's (bench/mpi/pingpong.c).
MPI_BENCHES := $(if $(MPI_ON),$(O)/bench/mpi/exchange $(O)/bench/mpi/peers $(O)/bench/mpi/pingpong)
$(O)/bench/mpi/%: bench/mpi/%.c $(O)/config
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(MPI_CFLAGS) $< -o $@ $(MPI_LIBS)

$(O)/bench/%: bench/%.c $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

PC_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g'
superstep.pc: superstep.pc.in Makefile $(O)/config
	$(PC_SUBST) $< > $@

examples: $(EXAMPLES)
# The tests of the mpi device run with the plug-in.
tests: $(TESTS) $(EXAMPLES) $(TOOLS) $(if $(MPI_ON),$(PLUGIN_MPI))

ifeq ($(TSAN),1)
test: $(patsubst %.c,$(O)/%,$(wildcard tests/tsan/*.c))
	@O=$(O) BINDIR=$(BINDIR) TSAN=1 tests/run tests/tsan/
else
# Two cases at a time by default: most cases wait more than they compute
# (failed ones run again alone; SUPERSTEP_TEST_JOBS=1 for one at a time).
test: all tests
	@O=$(O) BINDIR=$(BINDIR) SANITIZE=$(SANITIZE) SUPERSTEP_TEST_JOBS=$${SUPERSTEP_TEST_JOBS:-2} tests/run
endif

# The long fault campaign (tests/fault/campaign.sh; make test runs 24 cases):
#   make soak [SOAK_CASES=1000] [SOAK_SEED=1]
SOAK_CASES ?= 1000
SOAK_SEED  ?= 1
soak: all tests
	O=$(O) BINDIR=$(BINDIR) SANITIZE=$(SANITIZE) bash tests/fault/campaign.sh $(SOAK_CASES) $(SOAK_SEED)

bench: all $(BENCHES) $(MPI_BENCHES)
	@O=$(O) BINDIR=$(BINDIR) bench/run

# The same programs on MulticoreBSP and BSPonMPI beside Superstep (bench/peers;
# never part of the build or the tests): MCBSP=PREFIX and BSPONMPI=PREFIX
# name where each is installed (bench/peers --help says where to get them);
# without them, PEERS=DIR/mcbsp and DIR/bsponmpi, built from ../shared/peers
# when missing.
bench-peers: all $(BENCHES) $(MPI_BENCHES)
	@O=$(O) BINDIR=$(BINDIR) bench/peers $(if $(PEERS),--peers $(PEERS)) $(if $(MCBSP),--mcbsp $(MCBSP)) \
	    $(if $(BSPONMPI),--bsponmpi $(BSPONMPI))

# The same programs across 2 nodes of the multi-node test bed
# (tests/cluster/bed.sh; root) beside plain MPI and BSPonMPI (bench/cluster).
bench-cluster: all $(BENCHES) $(MPI_BENCHES)
	@O=$(O) bench/cluster $(if $(PEERS),--peers $(PEERS)) $(if $(BSPONMPI),--bsponmpi $(BSPONMPI))

# Installation.  Everything below PREFIX: headers, the static and the
# versioned shared library, the mpi plug-in (PREFIX/lib/superstep, when
# built), the tools, man pages (man/*.1, *.3, *.7, by wildcard; a page that
# is one line ".so man3/other.3" is an alias), the pkg-config file and the
# CMake package.  Programs linked through pkg-config or CMake carry an RPATH
# to PREFIX/lib, so they run without LD_LIBRARY_PATH.  The shared library
# finds the plug-in beside itself; libsuperstep.a, and bspbench (linked
# with it), look in the folder compiled into src/plugin/load.c, so install
# compiles load.c again with PREFIX/lib/superstep and makes those two anew
# (in a fresh folder: installs into other prefixes may run at once).
# uninstall removes exactly these files, then the folders install made:
# install lists in $(DIRS_MADE) each folder of INSTALL_DIRS it had to
# create (added to the list of an earlier install), and uninstall removes
# those that are empty, deepest first, and Superstep's own (lib/superstep,
# lib/cmake/Superstep, share/doc/superstep) when empty; PREFIX itself, and
# a folder that was there before, stay.
MAN_PAGES := $(wildcard man/*.1 man/*.3 man/*.7)
DEST      := $(DESTDIR)$(PREFIX)
CMAKE_DIR := $(DEST)/lib/cmake/Superstep
DOC_DIR   := $(DEST)/share/doc/superstep
DIRS_MADE := $(DOC_DIR)/folders
# Children after their parents (uninstall goes through them backwards).
INSTALL_DIRS := include bin lib lib/pkgconfig $(if $(MPI_ON),lib/superstep) lib/cmake lib/cmake/Superstep share share/doc \
                share/doc/superstep share/man $(addprefix share/man/man,$(sort $(subst .,,$(suffix $(MAN_PAGES)))))
# The tools that run BSP programs themselves, so load the plug-in.
PLUGIN_TOOLS := $(BINDIR)/bspbench

install: all
	made=$$(for d in $(INSTALL_DIRS); do [ -d "$(DEST)/$$d" ] || echo $$d; done; cat $(DIRS_MADE) 2>/dev/null || true) && \
	    install -d $(addprefix $(DEST)/,$(INSTALL_DIRS)) && printf '%s\n' $$made | sort -u | sed '/^$$/d' >$(DIRS_MADE)
	install -m 644 include/*.h include/*.hpp $(DEST)/include/
	set -e; t=$$(mktemp -d); trap 'rm -rf "$$t"' EXIT; \
	    $(CC) $(CFLAGS_ALL) $(PLUGIN_CFLAGS) -DSUPERSTEP_PLUGIN_DIR_BUILTIN='"$(PREFIX)/lib/superstep"' -fPIC -Isrc \
	        -c src/plugin/load.c -o $$t/load.o; \
	    $(call static_lib,$$t/libsuperstep.a,$(filter-out $(O)/src/plugin/load.o,$(LIB_OBJ)) $$t/load.o); \
	    install -m 644 $$t/libsuperstep.a $(DEST)/lib/; \
	    for tool in $(PLUGIN_TOOLS); do \
	        $(CC) $(CFLAGS_ALL) -Isrc tools/$${tool##*/}.c $$t/load.o -o $$t/$${tool##*/} $(INTERNAL_LINK) $(LDLIBS_ALL); \
	        install -m 755 $$t/$${tool##*/} $(DEST)/bin/; \
	    done
	install -m 755 $(LIB_SO_REAL) $(DEST)/lib/
	ln -sf $(notdir $(LIB_SO_REAL)) $(DEST)/lib/$(SO_NAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $(DEST)/lib/libsuperstep.so
	$(if $(MPI_ON),install -m 755 $(PLUGIN_MPI) $(DEST)/lib/superstep/)
	install -m 755 $(filter-out $(PLUGIN_TOOLS),$(TOOLS)) $(DEST)/bin/
	$(PC_SUBST) superstep.pc.in > $(DEST)/lib/pkgconfig/superstep.pc
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SO_VERSION@|$(SO_VERSION)|g' -e 's|@SO_NAME@|$(SO_NAME)|g' \
	    cmake/SuperstepConfig.cmake.in > $(CMAKE_DIR)/SuperstepConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/SuperstepConfigVersion.cmake.in > $(CMAKE_DIR)/SuperstepConfigVersion.cmake
	install -m 644 LICENSE $(DOC_DIR)/
	for page in $(MAN_PAGES); do install -m 644 $$page $(DEST)/share/man/man$${page##*.}/ || exit 1; done

uninstall:
	rm -f $(addprefix $(DEST)/include/,$(notdir $(wildcard include/*.h include/*.hpp)))
	rm -f $(DEST)/lib/$(notdir $(LIB_A)) $(DEST)/lib/$(notdir $(LIB_SO_REAL)) $(DEST)/lib/$(SO_NAME) $(DEST)/lib/libsuperstep.so
	rm -f $(DEST)/lib/superstep/$(notdir $(PLUGIN_MPI))
	rm -f $(addprefix $(DEST)/bin/,$(notdir $(TOOLS)))
	rm -f $(DEST)/lib/pkgconfig/superstep.pc $(CMAKE_DIR)/SuperstepConfig.cmake $(CMAKE_DIR)/SuperstepConfigVersion.cmake
	rm -f $(DOC_DIR)/LICENSE
	for page in $(MAN_PAGES); do rm -f $(DEST)/share/man/man$${page##*.}/$${page#man/}; done
	made="$$(cat $(DIRS_MADE) 2>/dev/null) lib/superstep lib/cmake/Superstep share/doc/superstep"; rm -f $(DIRS_MADE); \
	for d in $$(printf '%s\n' $(INSTALL_DIRS) lib/superstep | tac); do \
	    if printf '%s\n' $$made | grep -qx "$$d"; then rmdir "$(DEST)/$$d" 2>/dev/null || true; fi; \
	done

clean:
	rm -rf build lib bin superstep.pc
