/*
 * bsp.hpp - MulticoreBSP for C's C++ interface, for Superstep.
 *
 * Everything of bsp.h, mcbsp.h (machine and affinity) and
 * mcbsp-resiliency.h, and the class mcbsp::BSP_program: derive from it,
 * implement spmd() (the SPMD section, without bsp_begin and bsp_end) and
 * newInstance() (a fresh object of the derived class), and call begin(P).
 * As MulticoreBSP documents it:
 *   - processor 0 runs spmd() on the object begin was called on; every
 *     other processor runs it on an instance of its own, made with
 *     newInstance() by that processor after bsp_begin (so bsp_pid() may be
 *     used there), and handed to destroyInstance() (default: delete)
 *     after one more bsp_sync that follows spmd(), so that no peer still
 *     reads a field of it (bsp_direct_get, hp transfers);
 *   - begin(P) brackets all of it with bsp_begin(P) and bsp_end(); P
 *     defaults to bsp_nprocs(); begin may be called again for another run.
 * begin() gives bsp_init a function of the class's for the processors
 * other than 0: where they do not continue from processor 0's bsp_begin
 * (the mpi device, where a later run's processors start that function),
 * they make their instances with the object their own begin() was called
 * on (every rank runs main up to its first begin()).
 * Each processor is a process here: an instance's fields are private to
 * its processor, and only processor 0's object (the caller's) lives on
 * after begin returns.  The class is header-only: bspcxx (or any C++
 * compiler with Superstep's include folder and library) builds it.
 */
#ifndef SUPERSTEP_BSP_HPP
#define SUPERSTEP_BSP_HPP

#include "bsp.h"
#include "mcbsp-resiliency.h"
#include "mcbsp.h"

#include <cstddef>
#include <limits>

namespace mcbsp {

class BSP_program {
  private:
    /* The processors of the run begin() is starting (not yet known: the maximum). */
    size_t P;

    /* The object begin() was last called on, in this process. */
    static BSP_program *&started()
    {
        static BSP_program *object = 0;
        return object;
    }

    /* A processor other than 0 from its first line (bsp_init's function). */
    static void other()
    {
        BSP_program *const self = started();
        bsp_begin(static_cast<bsp_pid_t>(self->P));
        self->run();
    }

    void run()
    {
        if (bsp_pid() == 0) {
            spmd();
            bsp_sync(); /* matches the other processors' sync before they destroy theirs */
        } else {
            BSP_program *mine = newInstance();
            mine->spmd();
            bsp_sync(); /* peers may still read my instance's fields until here */
            destroyInstance(mine);
        }
        bsp_end();
    }

  protected:
    BSP_program() : P(std::numeric_limits<size_t>::max()) {}

    /* The SPMD section, run by every processor on its own instance. */
    virtual void spmd() = 0;

    /* A new instance of the derived class, for a processor other than 0. */
    virtual BSP_program *newInstance() = 0;

    /* Called on processor 0's object with each other processor's instance
     * once that processor is done with it. */
    virtual void destroyInstance(BSP_program *const instance) { delete instance; }

  public:
    /* Run spmd() on P processors (bsp_begin(P) ... bsp_end()). */
    void begin(const bsp_pid_t P = bsp_nprocs())
    {
        this->P = static_cast<size_t>(P);
        started() = this;
        bsp_init(&BSP_program::other, 0, 0);
        bsp_begin(P);
        run();
    }

    virtual ~BSP_program() {}
};

} // namespace mcbsp

#endif /* SUPERSTEP_BSP_HPP */
