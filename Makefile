# Superstep - GNU Make build.
#   make                    library, tools, examples, superstep.pc
#   make test               build and run the test suite
#   make test SANITIZE=1    the same under AddressSanitizer + UBSan
#   make bench              the benchmark table (bench/)
#   make install PREFIX=... install headers, libraries, tools, pkg-config file
#
# Sources are found by wildcard: a new .c file in src/<layer>/ joins the
# library, one in tests/<suite>/ becomes a test, one in examples/ an example.

PREFIX   ?= /usr/local
CC       ?= cc
OPT      ?= -O2
SANITIZE ?=

ifeq ($(SANITIZE),1)
O        := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
O        := build/rel
SANFLAGS :=
endif

# Release outputs live in lib/ and bin/; sanitizer outputs stay under build/san.
ifeq ($(SANITIZE),1)
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
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(MPI_CFLAGS))
CFLAGS_ALL += -DSUPERSTEP_HAVE_MPI
LDLIBS_ALL += $(MPI_LIBS)
MPI_SKIP   :=
else
MPI_LIBS   :=
MPI_SKIP   := src/device/mpi.c
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(info superstep: building without MPI support ($(if $(filter 0,$(MPI)),MPI=0,no $(MPICC) found)))
endif
endif
BUILD_CONFIG := mpi=$(if $(MPI_ON),yes,no)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(shell mkdir -p $(O) && { [ "$$(cat $(O)/config 2>/dev/null)" = "$(BUILD_CONFIG)" ] || echo "$(BUILD_CONFIG)" > $(O)/config; })
endif

LIB_SRC  := $(filter-out $(MPI_SKIP),$(wildcard src/*/*.c))
LIB_OBJ  := $(patsubst %.c,$(O)/%.o,$(LIB_SRC))
LIB_A    := $(LIBDIR)/libsuperstep.a
LIB_SO   := $(LIBDIR)/libsuperstep.so

TOOL_SRC := $(wildcard tools/*.c)
TOOLS    := $(patsubst tools/%.c,$(BINDIR)/%,$(TOOL_SRC)) $(BINDIR)/bspcc

EX_SRC   := $(wildcard examples/*.c examples/*/*.c)
EXAMPLES := $(patsubst %.c,$(O)/%,$(EX_SRC))

TEST_SRC := $(wildcard tests/*/*.c)
TESTS    := $(patsubst %.c,$(O)/%,$(TEST_SRC))

BENCH_SRC := $(wildcard bench/*.c)
BENCHES  := $(patsubst %.c,$(O)/%,$(BENCH_SRC))

HEADERS  := $(wildcard include/*.h) $(wildcard src/*/*.h) $(O)/config

.PHONY: all test bench install clean examples tests soak
all: $(LIB_A) $(LIB_SO) $(TOOLS) $(EXAMPLES) superstep.pc

$(O)/src/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -fPIC -Isrc -c $< -o $@

$(O)/src/device/mpi.o: src/device/mpi.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(MPI_CFLAGS) -fPIC -Isrc -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(SANFLAGS) -shared -o $@ $^ $(LDLIBS_ALL)

# Tools may use internal headers (bspbench reads no internals; bsprun does not either).
$(BINDIR)/%: tools/%.c $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(LIB_A) $(LDLIBS_ALL)

$(BINDIR)/bspcc: tools/bspcc.in $(O)/config
	@mkdir -p $(dir $@)
	sed -e "s|@SANFLAGS@|$(SANFLAGS)|g" -e "s|@SRCINC@|$(CURDIR)/include|g" -e "s|@MPILIBS@|$(MPI_LIBS)|g" $< > $@ && chmod +x $@

$(O)/examples/%: examples/%.c $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $< -o $@ $(LIB_A) $(LDLIBS_ALL)

# Tests may include internal headers to test a layer directly.
$(O)/tests/%: tests/%.c tests/check.h $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc -Itests $< -o $@ $(LIB_A) $(LDLIBS_ALL)

# The mpi device's exchange protocols, bare (bench/mpi/run).
MPI_BENCHES := $(if $(MPI_ON),$(O)/bench/mpi/exchange)
$(O)/bench/mpi/exchange: bench/mpi/exchange.c $(O)/config
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) $(MPI_CFLAGS) $< -o $@ $(MPI_LIBS)

$(O)/bench/%: bench/%.c $(LIB_A) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Isrc $< -o $@ $(LIB_A) $(LDLIBS_ALL)

superstep.pc: superstep.pc.in Makefile $(O)/config
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1.0|g' -e 's|@MPILIBS@|$(MPI_LIBS)|g' $< > $@

examples: $(EXAMPLES)
tests: $(TESTS) $(EXAMPLES) $(TOOLS)

test: all tests
	@O=$(O) BINDIR=$(BINDIR) SANITIZE=$(SANITIZE) tests/run

# The long fault campaign (tests/fault/campaign.sh; make test runs 24 cases):
#   make soak [SOAK_CASES=1000] [SOAK_SEED=1]
SOAK_CASES ?= 1000
SOAK_SEED  ?= 1
soak: all tests
	O=$(O) BINDIR=$(BINDIR) SANITIZE=$(SANITIZE) bash tests/fault/campaign.sh $(SOAK_CASES) $(SOAK_SEED)

bench: all $(BENCHES) $(MPI_BENCHES)
	@O=$(O) BINDIR=$(BINDIR) bench/run

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	install -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1.0|g' -e 's|@MPILIBS@|$(MPI_LIBS)|g' superstep.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/superstep.pc

clean:
	rm -rf build lib bin superstep.pc
