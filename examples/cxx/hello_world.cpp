// hello_world.cpp - MulticoreBSP's C++ interface: a class derived from
// mcbsp::BSP_program; begin(P) runs spmd() on P processors, processor 0 on
// this object, every other on an instance of its own (newInstance).
//   bin/bspcxx examples/cxx/hello_world.cpp -o hello_world && bin/bsprun -n 4 ./hello_world
#include <bsp.hpp>

#include <iostream>
#include <sstream>

class Hello_World : public mcbsp::BSP_program {
  private:
    int greeted; // each processor's own

  protected:
    virtual void spmd()
    {
        greeted = static_cast<int>(bsp_pid());
        bsp_push_reg(&greeted, sizeof greeted);
        bsp_sync();
        int left = -1; // the left neighbour's field of its own instance
        bsp_get((bsp_pid() + bsp_nprocs() - 1) % bsp_nprocs(), &greeted, 0, &left, sizeof left);
        bsp_sync();
        std::ostringstream line;
        line << "Hello world from processor " << bsp_pid() << " of " << bsp_nprocs()
             << "; my left neighbour's instance holds " << left << "\n";
        std::cout << line.str() << std::flush;
        bsp_pop_reg(&greeted);
    }

    virtual mcbsp::BSP_program *newInstance() { return new Hello_World(); }

  public:
    Hello_World() : greeted(-1) {}
};

int main()
{
    Hello_World program;
    program.begin(); // bsp_nprocs() processors
    std::cout << "In between two runs" << std::endl;
    program.begin(2);
    return 0;
}
