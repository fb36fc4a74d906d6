# cuda_wheels.cmake — finds nvcc and the CUDA headers; when no CUDA toolkit is installed,
# takes both from NVIDIA's PyPI wheels (no GPU needed) into a virtual environment in the
# build tree (${PTXI_VENV}), so a fresh machine builds libcudart/libcuda and runs every test.
# Sets PTXI_NVCC (nvcc's path, empty when none), PTXI_NVCC_FROM_WHEELS, PTXI_CUDA_INCLUDE_DIR.

option(PTXI_CUDA_WHEELS "Without a CUDA toolkit, fetch nvcc and the CUDA headers from PyPI" ON)
set(PTXI_VENV ${CMAKE_BINARY_DIR}/venv CACHE PATH "Python environment of the build (CUDA wheels, Python tests)")
# One CUDA release for nvcc and for the Python tests' NVVM: the one the samples were recorded with.
set(PTXI_CUDA_WHEEL_PINS
    nvidia-cuda-nvcc==13.0.88 nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96
    nvidia-nvvm==13.0.88 nvidia-cuda-cccl==13.0.85)

find_program(PTXI_TOOLKIT_NVCC nvcc HINTS /usr/local/cuda/bin)
set(PTXI_NVCC_FROM_WHEELS OFF)
if(PTXI_TOOLKIT_NVCC)
  set(PTXI_NVCC ${PTXI_TOOLKIT_NVCC})
else()
  set(PTXI_NVCC "")
endif()

# Creates the environment once; later configures reuse it. Returns quietly when PyPI
# cannot be reached (the tests that need nvcc then say so).
function(ptxi_venv_pip_install stamp)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(NOT Python3_FOUND)
    message(STATUS "CUDA wheels: no python3 (apt-get install python3-venv)")
    return()
  endif()
  if(NOT EXISTS ${PTXI_VENV}/bin/python3)
    execute_process(COMMAND ${Python3_EXECUTABLE} -m venv ${PTXI_VENV} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(STATUS "CUDA wheels: python3 -m venv failed (apt-get install python3-venv): ${err}")
      file(REMOVE_RECURSE ${PTXI_VENV})
      return()
    endif()
  endif()
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND ${PTXI_VENV}/bin/python3 -m pip install --disable-pip-version-check -q ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  string(TIMESTAMP t1 "%s")
  math(EXPR secs "${t1} - ${t0}")
  if(rc EQUAL 0)
    file(WRITE ${stamp} "${ARGN}")
    message(STATUS "CUDA wheels: installed into ${PTXI_VENV} in ${secs} s")
  else()
    message(STATUS "CUDA wheels: pip failed (no network?): ${err}")
  endif()
endfunction()

if(NOT PTXI_NVCC AND PTXI_CUDA_WHEELS)
  set(_cw_stamp ${PTXI_VENV}/cuda-wheels.stamp)
  set(_cw_want "${PTXI_CUDA_WHEEL_PINS}")
  set(_cw_have "")
  if(EXISTS ${_cw_stamp})
    file(READ ${_cw_stamp} _cw_have)
  endif()
  if(NOT _cw_have STREQUAL _cw_want)
    message(STATUS "CUDA wheels: no CUDA toolkit; fetching nvcc and the headers from PyPI (about 300 MB)")
    ptxi_venv_pip_install(${_cw_stamp} ${PTXI_CUDA_WHEEL_PINS})
  endif()
  file(GLOB _cw_nvcc ${PTXI_VENV}/lib/python3*/site-packages/nvidia/cu13/bin/nvcc)
  if(_cw_nvcc AND EXISTS ${_cw_stamp})
    list(GET _cw_nvcc 0 PTXI_NVCC)
    get_filename_component(_cw_top ${PTXI_NVCC} DIRECTORY)
    get_filename_component(_cw_top ${_cw_top} DIRECTORY)
    # nvcc links -lcudart and -lcudadevrt from lib64 (nvcc.profile), the wheels put them in
    # lib; and they ship only libcudart.so.13 (programs run with ptxi's, same soname).
    file(CREATE_LINK libcudart.so.13 ${_cw_top}/lib/libcudart.so SYMBOLIC)
    if(NOT EXISTS ${_cw_top}/lib64)
      file(CREATE_LINK lib ${_cw_top}/lib64 SYMBOLIC)
    endif()
    set(PTXI_CUDA_INCLUDE_DIR ${_cw_top}/include CACHE PATH "CUDA headers" FORCE)
    set(PTXI_NVCC_FROM_WHEELS ON)
    message(STATUS "CUDA wheels: nvcc ${PTXI_NVCC}")
  endif()
endif()
if(PTXI_NVCC)
  get_filename_component(PTXI_NVCC_DIR ${PTXI_NVCC} DIRECTORY)
endif()
