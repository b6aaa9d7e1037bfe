# Superstep - GNU Make build.
#   make                    library, tools, examples, superstep.pc
#   make test               build and run the test suite
#   make test SANITIZE=1    the same under AddressSanitizer + UBSan
#   make bench              the benchmark table (bench/)
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

WARN     := -Wall -Wextra -Werror
CFLAGS_ALL = -std=c11 -D_GNU_SOURCE $(OPT) -g $(WARN) $(SANFLAGS) -Iinclude $(CFLAGS)
LDLIBS_ALL = -lpthread -lm $(LDLIBS)

# MPI: the mpi device (src/device/mpi.c) is built when an MPI compiler
# wrapper is found (MPICC=mpicc by default; MPI=0 builds without it), with
# the wrapper's compile and link flags (Open MPI --showme, MPICH -*_info).
# Programs, tools and bspcc then link libmpi.  $(O)/config records the
# choice: objects are rebuilt when it changes, tests/run reads it.
MPICC ?= mpicc
MPI_HOST_SRC := src/host/hmpi.c src/host/hwatch.c src/ebsp/kmpi.c src/session/session_mpi.c
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
CFLAGS_ALL += -DSUPERSTEP_HAVE_MPI
LDLIBS_ALL += $(MPI_LIBS)
MPI_SKIP   :=
else
MPI_LIBS   :=
MPI_SKIP   := src/device/mpi.c src/mp/mp_mpi.c $(MPI_HOST_SRC)
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

LIB_SRC  := $(filter-out $(MPI_SKIP),$(wildcard src/*/*.c))
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
# How they link it: the profiler installs itself into the BSP layer by a
# constructor (no layer below names it, src/bsp/bsp_impl.h), so a plain
# archive would leave it out unless the link asks for it.
INTERNAL_LINK := -Wl,--undefined=profile_observer $(LIB_INTERNAL)

TOOL_SRC := $(wildcard tools/*.c)
TOOLS    := $(patsubst tools/%.c,$(BINDIR)/%,$(TOOL_SRC)) $(BINDIR)/bspcc $(BINDIR)/bspcxx

EX_SRC   := $(wildcard examples/*.c examples/*/*.c)
EXAMPLES := $(patsubst %.c,$(O)/%,$(EX_SRC))

TEST_SRC := $(wildcard tests/*/*.c)
TESTS    := $(patsubst %.c,$(O)/%,$(TEST_SRC))

BENCH_SRC := $(wildcard bench/*.c)
BENCHES  := $(patsubst %.c,$(O)/%,$(BENCH_SRC))

HEADERS  := $(wildcard include/*.h) $(wildcard src/*/*.h) $(O)/config

.PHONY: all test bench install uninstall clean examples tests soak
all: $(LIB_A) $(LIB_SO) $(TOOLS) $(EXAMPLES) superstep.pc

$(O)/src/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -Isrc -c $< -o $@

$(O)/src/device/mpi.o: src/device/mpi.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MPI_CFLAGS) -fPIC -Isrc -c $< -o $@

$(O)/src/mp/mp_mpi.o: src/mp/mp_mpi.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MPI_CFLAGS) -fPIC -Isrc -c $< -o $@

# Epiphany host programs and kernels on the mpi device (docs/mpi.md).
$(patsubst %.c,$(O)/%.o,$(MPI_HOST_SRC)): $(O)/%.o: %.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MPI_CFLAGS) -fPIC -Isrc -c $< -o $@

# Exports.  The libraries export exactly the functions that include/*.h
# declares, nothing of the layers (job, dev, now_ns, chan_*, ...), so a
# program may use any name of its own.  The list is made by the compiler
# from the public headers (-aux-info on each header alone, once per dialect
# in EXPORT_VARIANTS, since bsp.h renames functions by macro), so a new
# header or declaration is exported with no further edit.  The .so takes
# it as a version script; the .a is one partial link (ld -r) of every
# object in which objcopy makes every other symbol local.  (Why not
# -fvisibility=hidden and an export macro: see docs/architecture.md.)
EXPORT_VARIANTS := -DSUPERSTEP_MCBSP -DMCBSP_COMPATIBILITY_MODE
EXPORT_LIST := $(O)/exports.list
EXPORT_MAP  := $(O)/exports.map
# Public variables (bsc.h's bsc_all, e-lib.h's e_group_config) are the
# header lines "extern TYPE NAME;" (-aux-info lists functions only).
$(EXPORT_LIST): $(wildcard include/*.h) Makefile
	@mkdir -p $(dir $@)
	@{ for h in include/*.h; do for v in "" $(EXPORT_VARIANTS); do \
	    $(CC) -std=c11 -D_GNU_SOURCE -Iinclude $$v -fsyntax-only -aux-info $@.aux -x c $$h 2>/dev/null || continue; \
	    grep -F "/* $$h:" $@.aux | grep -v '\*/ static ' \
	        | sed -E 's|^/\*[^*]*\*/ *||; s|^([^(]*[^A-Za-z0-9_(])?([A-Za-z_][A-Za-z0-9_]*) \(.*|\2|'; \
	done; done; sed -n -E 's/^extern [^("]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*);.*/\1/p' include/*.h; } \
	    | sort -u >$@.tmp && rm -f $@.aux && test -s $@.tmp && mv $@.tmp $@
$(EXPORT_MAP): $(EXPORT_LIST)
	{ echo '{ global:'; sed 's/$$/;/' $<; echo 'local: *; };'; } >$@

$(LIB_A): $(LIB_OBJ) $(EXPORT_LIST)
	@mkdir -p $(dir $@)
	ld -r -o $(O)/libsuperstep.o $(LIB_OBJ)
	objcopy --keep-global-symbols=$(EXPORT_LIST) $(O)/libsuperstep.o
	rm -f $@ && ar rcs $@ $(O)/libsuperstep.o

$(LIB_INTERNAL): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJ) $(EXPORT_MAP)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -Wl,-soname,$(SO_NAME) -Wl,--version-script=$(EXPORT_MAP) -o $@ $(LIB_OBJ) $(LDLIBS_ALL)

$(LIB_SO): $(LIB_SO_REAL)
	ln -sf $(notdir $(LIB_SO_REAL)) $(LIBDIR)/$(SO_NAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $@

# Tools may use internal headers (bspbench reads no internals; bsprun does not either).
# bsprun --device mpi starts the launcher of the MPI this build links.
$(BINDIR)/bsprun: CFLAGS_ALL += $(if $(MPI_LAUNCHER),-DSUPERSTEP_MPI_LAUNCHER='"$(MPI_LAUNCHER)"')
$(BINDIR)/%: tools/%.c $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

# bspprof's and bspbench's header-only parts (tools/prof, tools/bench).
$(BINDIR)/bspprof $(BINDIR)/bspbench $(O)/tests/profile/fit: $(wildcard tools/*/*.h)

# bspcxx is bspcc for C++ (the script looks at the name it was called by).
$(BINDIR)/bspcc $(BINDIR)/bspcxx: tools/bspcc.in $(O)/config include/bsp.h
	@mkdir -p $(dir $@)
	sed -e "s|@SANFLAGS@|$(SANFLAGS)|g" -e "s|@SRCINC@|$(CURDIR)/include|g" -e "s|@MPILIBS@|$(MPI_LIBS)|g" \
	    -e "s|@MPIINC@|$(MPI_INC)|g" -e "s|@VERSION@|$(VERSION)|g" $< > $@ && chmod +x $@

$(O)/examples/%: examples/%.c $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $< -o $@ $(LIB_A) $(LDLIBS_ALL)

# Tests may include internal headers to test a layer directly.
$(O)/tests/%: tests/%.c $(wildcard tests/*.h tests/*/*.h) $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -Itests $< -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

# The mpi device's exchange protocols, bare (bench/mpi/run).
# Open MPI peers of bench/'s figures, written directly in MPI (bench/mpi/peers.c).
MPI_BENCHES := $(if $(MPI_ON),$(O)/bench/mpi/exchange $(O)/bench/mpi/peers)
$(O)/bench/mpi/%: bench/mpi/%.c $(O)/config
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(MPI_CFLAGS) $< -o $@ $(MPI_LIBS)

$(O)/bench/%: bench/%.c $(LIB_INTERNAL) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(INTERNAL_LINK) $(LDLIBS_ALL)

PC_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e 's|@MPILIBS@|$(MPI_LIBS)|g'
superstep.pc: superstep.pc.in Makefile $(O)/config
	$(PC_SUBST) $< > $@

examples: $(EXAMPLES)
tests: $(TESTS) $(EXAMPLES) $(TOOLS)

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

# Installation.  Everything below PREFIX: headers, the static and the
# versioned shared library, the tools, man pages (man/*.1, *.3, *.7, by
# wildcard; a page that is one line ".so man3/other.3" is an alias), the
# pkg-config file and the CMake package.  Programs linked through pkg-config
# or CMake carry an RPATH to PREFIX/lib, so they run without LD_LIBRARY_PATH.
# uninstall removes exactly these files, then the folders install made for
# Superstep alone (lib/cmake/Superstep, share/doc/superstep) when empty.
MAN_PAGES := $(wildcard man/*.1 man/*.3 man/*.7)
DEST      := $(DESTDIR)$(PREFIX)
CMAKE_DIR := $(DEST)/lib/cmake/Superstep
DOC_DIR   := $(DEST)/share/doc/superstep

install: all
	install -d $(DEST)/include $(DEST)/lib/pkgconfig $(DEST)/bin $(CMAKE_DIR) $(DOC_DIR)
	install -m 644 include/*.h $(DEST)/include/
	install -m 644 $(LIB_A) $(DEST)/lib/
	install -m 755 $(LIB_SO_REAL) $(DEST)/lib/
	ln -sf $(notdir $(LIB_SO_REAL)) $(DEST)/lib/$(SO_NAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $(DEST)/lib/libsuperstep.so
	install -m 755 $(TOOLS) $(DEST)/bin/
	$(PC_SUBST) superstep.pc.in > $(DEST)/lib/pkgconfig/superstep.pc
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SO_VERSION@|$(SO_VERSION)|g' -e 's|@SO_NAME@|$(SO_NAME)|g' \
	    -e 's|@MPILIBS@|$(MPI_LIBS)|g' \
	    cmake/SuperstepConfig.cmake.in > $(CMAKE_DIR)/SuperstepConfig.cmake
	sed -e 's|@VERSION@|$(VERSION)|g' cmake/SuperstepConfigVersion.cmake.in > $(CMAKE_DIR)/SuperstepConfigVersion.cmake
	install -m 644 LICENSE $(DOC_DIR)/
	for page in $(MAN_PAGES); do \
	    sec=$${page##*.}; install -d $(DEST)/share/man/man$$sec && install -m 644 $$page $(DEST)/share/man/man$$sec/ || exit 1; \
	done

uninstall:
	rm -f $(addprefix $(DEST)/include/,$(notdir $(wildcard include/*.h)))
	rm -f $(DEST)/lib/$(notdir $(LIB_A)) $(DEST)/lib/$(notdir $(LIB_SO_REAL)) $(DEST)/lib/$(SO_NAME) $(DEST)/lib/libsuperstep.so
	rm -f $(addprefix $(DEST)/bin/,$(notdir $(TOOLS)))
	rm -f $(DEST)/lib/pkgconfig/superstep.pc $(CMAKE_DIR)/SuperstepConfig.cmake $(CMAKE_DIR)/SuperstepConfigVersion.cmake
	rm -f $(DOC_DIR)/LICENSE
	for page in $(MAN_PAGES); do rm -f $(DEST)/share/man/man$${page##*.}/$${page#man/}; done
	rmdir $(CMAKE_DIR) $(DOC_DIR) 2>/dev/null || true

clean:
	rm -rf build lib bin superstep.pc
