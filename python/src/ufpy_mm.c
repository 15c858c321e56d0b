/* CUDA memory managers from Python (ufjit.cuda.set_memory_manager): a C
 * plug-in named as UFJIT_CUDA_MEMORY_MANAGER names one ("path.so:symbol",
 * its factory), or a Python object implementing the plug-in's methods,
 * bridged here into a uf_cuda_memory_manager table whose calls take the
 * GIL. The Python object gets the driver ufjit lends plug-ins as a
 * _core.MMDriver (mem_alloc, mem_free, mem_get_info), so a pool written
 * in Python runs on the GPU and on cudasim alike. */
#include "ufpy.h"

#include <string.h>
#include <ufjit/cuda_memory.h>

/* ---- _core.MMDriver: the driver lent to a manager ---- */

typedef struct {
    PyObject_HEAD
    const uf_cuda_mm_driver *d;
} ufpy_mmdriver;

static PyObject *drv_result(const uf_cuda_mm_driver *d, int rc,
                            const char *what)
{
    const char *name = d->error_name ? d->error_name(d, rc) : NULL;
    if (rc == 2)
        return PyErr_Format(PyExc_MemoryError, "%s: %s", what,
                            name ? name : "out of memory");
    return PyErr_Format(PyExc_RuntimeError, "%s failed: %s (%d)", what,
                        name ? name : "CUDA error", rc);
}

static PyObject *mmdrv_alloc(ufpy_mmdriver *self, PyObject *arg)
{
    size_t n = PyLong_AsSize_t(arg);
    if (n == (size_t)-1 && PyErr_Occurred())
        return NULL;
    uint64_t p;
    int rc = self->d->mem_alloc(self->d, &p, n);
    return rc ? drv_result(self->d, rc, "cuMemAlloc")
              : PyLong_FromUnsignedLongLong(p);
}

static PyObject *mmdrv_free(ufpy_mmdriver *self, PyObject *arg)
{
    unsigned long long p = PyLong_AsUnsignedLongLong(arg);
    if (p == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    int rc = self->d->mem_free(self->d, p);
    if (rc)
        return drv_result(self->d, rc, "cuMemFree");
    Py_RETURN_NONE;
}

static PyObject *mmdrv_info(ufpy_mmdriver *self, PyObject *unused)
{
    (void)unused;
    size_t f, t;
    int rc = self->d->mem_get_info(self->d, &f, &t);
    return rc ? drv_result(self->d, rc, "cuMemGetInfo")
              : Py_BuildValue("(nn)", (Py_ssize_t)f, (Py_ssize_t)t);
}

static PyObject *mmdrv_target(ufpy_mmdriver *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(self->d->target);
}

static PyMethodDef mmdrv_methods[] = {
    {"mem_alloc", (PyCFunction)mmdrv_alloc, METH_O,
     "mem_alloc(nbytes) -> device address (cuMemAlloc)"},
    {"mem_free", (PyCFunction)mmdrv_free, METH_O, "mem_free(address)"},
    {"mem_get_info", (PyCFunction)mmdrv_info, METH_NOARGS,
     "() -> (free, total) bytes"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef mmdrv_getset[] = {
    {"target", (getter)mmdrv_target, NULL, "'cuda' or 'cudasim'", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ufpy_mmdriver_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.MMDriver",
    .tp_basicsize = sizeof(ufpy_mmdriver),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The CUDA driver ufjit lends a memory manager.",
    .tp_methods = mmdrv_methods,
    .tp_getset = mmdrv_getset,
};

/* ---- a Python object as a manager ---- */

/* The Python exception now set, as the error a plug-in method returns:
 * MemoryError is UF_ERR_NOMEM, NotImplementedError UF_ERR_UNSUPPORTED. */
static int from_exception(const char *method, uf_error *err)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    int code = PyErr_GivenExceptionMatches(type, PyExc_MemoryError)
                   ? UF_ERR_NOMEM
               : PyErr_GivenExceptionMatches(type, PyExc_NotImplementedError)
                   ? UF_ERR_UNSUPPORTED
                   : UF_ERR_INVALID;
    PyObject *s = value ? PyObject_Str(value) : NULL;
    const char *msg = s ? PyUnicode_AsUTF8(s) : NULL;
    err->code = code;
    err->line = err->column = 0;
    err->file[0] = '\0';
    snprintf(err->message, sizeof err->message, "%s raised %s: %s", method,
             type ? ((PyTypeObject *)type)->tp_name : "an exception",
             msg ? msg : "");
    PyErr_Clear();
    Py_XDECREF(s);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return code;
}

/* obj.method(*args built from fmt), the result in *out (may be NULL). */
static int call(void *user, const char *method, uf_error *err,
                PyObject **out, const char *fmt, ...)
{
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = 0;
    va_list ap;
    va_start(ap, fmt);
    PyObject *args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    PyObject *fn = args ? PyObject_GetAttrString(user, method) : NULL;
    PyObject *r = fn ? PyObject_CallObject(fn, args) : NULL;
    Py_XDECREF(fn);
    Py_XDECREF(args);
    if (r == NULL)
        rc = from_exception(method, err);
    else if (out)
        *out = r;
    else
        Py_DECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int obj_initialize(void *user, const uf_cuda_mm_driver *drv,
                          uf_error *err)
{
    PyGILState_STATE g = PyGILState_Ensure();
    ufpy_mmdriver *d = PyObject_New(ufpy_mmdriver, &ufpy_mmdriver_type);
    int rc = 0;
    if (d == NULL)
        rc = from_exception("initialize", err);
    else {
        d->d = drv;
        if (PyObject_HasAttrString(user, "initialize"))
            rc = call(user, "initialize", err, NULL, "(O)", d);
        Py_DECREF(d);
    }
    PyGILState_Release(g);
    return rc;
}

static int obj_reset(void *user, uf_error *err)
{
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = PyObject_HasAttrString(user, "reset")
                 ? call(user, "reset", err, NULL, "()")
                 : 0;
    PyGILState_Release(g);
    return rc;
}

static void obj_destroy(void *user)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)user);
    PyGILState_Release(g);
}

static int obj_memalloc(void *user, size_t bytes, uf_cuda_mm_stream s,
                        uint64_t *p, uf_error *err)
{
    PyObject *r = NULL;
    int rc = call(user, "memalloc", err, &r, "(nK)", (Py_ssize_t)bytes,
                  (unsigned long long)(uintptr_t)s);
    if (rc)
        return rc;
    PyGILState_STATE g = PyGILState_Ensure();
    *p = PyLong_AsUnsignedLongLong(r);
    if (*p == (uint64_t)-1 && PyErr_Occurred())
        rc = from_exception("memalloc's result", err);
    Py_DECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int obj_memfree(void *user, uint64_t p, size_t bytes,
                       uf_cuda_mm_stream s, uf_error *err)
{
    return call(user, "memfree", err, NULL, "(KnK)", (unsigned long long)p,
                (Py_ssize_t)bytes, (unsigned long long)(uintptr_t)s);
}

static int obj_info(void *user, size_t *free_bytes, size_t *total_bytes,
                    uf_cuda_mm_stream s, uf_error *err)
{
    (void)s;
    PyObject *r = NULL;
    int rc = call(user, "get_memory_info", err, &r, "()");
    if (rc)
        return rc;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_ssize_t f, t;
    if (!PyArg_ParseTuple(r, "nn", &f, &t))
        rc = from_exception("get_memory_info's result", err);
    else {
        *free_bytes = (size_t)f;
        *total_bytes = (size_t)t;
    }
    Py_DECREF(r);
    PyGILState_Release(g);
    return rc;
}

static int obj_defer_begin(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    (void)s;
    return call(user, "defer_cleanup_begin", err, NULL, "()");
}

static int obj_defer_end(void *user, uf_cuda_mm_stream s, uf_error *err)
{
    (void)s;
    return call(user, "defer_cleanup_end", err, NULL, "()");
}

/* set_memory_manager(target, obj_or_spec, name) */
static PyObject *set_memory_manager(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL, *name = "python";
    PyObject *mm_o;
    if (!PyArg_ParseTuple(args, "zO|s", &target, &mm_o, &name))
        return NULL;
    uf_error err;
    uf_cuda_memory_manager mm;
    memset(&mm, 0, sizeof mm);
    if (mm_o == Py_None) {
        if (uf_cuda_set_memory_manager(target, NULL, &err) != 0)
            return ufpy_raise(&err);
        Py_RETURN_NONE;
    }
    if (PyUnicode_Check(mm_o)) {
        /* a C plug-in, "path.so:factory": the library's own loader */
        const char *spec = PyUnicode_AsUTF8(mm_o);
        if (spec == NULL)
            return NULL;
        if (uf_cuda_memory_manager_load(spec, &mm, &err) != 0) {
            if (err.code != UF_ERR_NOT_FOUND)
                return ufpy_raise(&err);
            /* a library that does not load: OSError, as ctypes says it */
            return PyErr_Format(PyExc_OSError, "%s", err.message);
        }
        if (uf_cuda_set_memory_manager(target, &mm, &err) != 0) {
            if (mm.destroy)
                mm.destroy(mm.user);
            return ufpy_raise(&err);
        }
        Py_RETURN_NONE;
    }
    if (!PyObject_HasAttrString(mm_o, "memalloc") ||
        !PyObject_HasAttrString(mm_o, "memfree"))
        return PyErr_Format(PyExc_TypeError,
                            "a memory manager has memalloc(nbytes, stream) "
                            "and memfree(address, nbytes, stream)");
    static char names[8][64];
    static int next;
    char *stable = names[next++ % 8];
    snprintf(stable, 64, "%s", name);
    mm.interface_version = UF_CUDA_MM_INTERFACE_VERSION;
    mm.name = stable;
    mm.user = Py_NewRef(mm_o);
    mm.initialize = obj_initialize;
    mm.reset = obj_reset;
    mm.destroy = obj_destroy;
    mm.memalloc = obj_memalloc;
    mm.memfree = obj_memfree;
    if (PyObject_HasAttrString(mm_o, "get_memory_info"))
        mm.get_memory_info = obj_info;
    if (PyObject_HasAttrString(mm_o, "defer_cleanup_begin") &&
        PyObject_HasAttrString(mm_o, "defer_cleanup_end")) {
        mm.defer_cleanup_begin = obj_defer_begin;
        mm.defer_cleanup_end = obj_defer_end;
    }
    int rc;
    rc = uf_cuda_set_memory_manager(target, &mm, &err);
    if (rc != 0) {
        Py_DECREF(mm_o);
        /* an exception raised by the object's initialize is in err */
        return ufpy_raise(&err);
    }
    Py_RETURN_NONE;
}

/* memory_stats(target) -> dict */
static PyObject *memory_stats(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "|z", &target))
        return NULL;
    uf_error err;
    uf_cuda_memory_stats st;
    if (uf_cuda_memory_stats_get(target, &st, &err) != 0)
        return ufpy_raise(&err);
    return Py_BuildValue("{sssnsnsnsnsnsnsi}", "manager", st.manager,
                         "live_allocations", (Py_ssize_t)st.live_allocations,
                         "live_bytes", (Py_ssize_t)st.live_bytes,
                         "pending_count", (Py_ssize_t)st.pending_count,
                         "pending_bytes", (Py_ssize_t)st.pending_bytes,
                         "flushes", (Py_ssize_t)st.flushes, "failed_frees",
                         (Py_ssize_t)st.failed_frees, "defer_depth",
                         st.defer_depth);
}

static PyObject *simple(int (*fn)(const char *, uf_error *), PyObject *args)
{
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "|z", &target))
        return NULL;
    uf_error err;
    if (fn(target, &err) != 0)
        return ufpy_raise(&err);
    Py_RETURN_NONE;
}

static PyObject *memory_reset(PyObject *self, PyObject *args)
{
    (void)self;
    return simple(uf_cuda_memory_reset, args);
}

static PyObject *memory_flush(PyObject *self, PyObject *args)
{
    (void)self;
    return simple(uf_cuda_memory_flush, args);
}

static PyObject *defer_begin(PyObject *self, PyObject *args)
{
    (void)self;
    return simple(uf_cuda_defer_cleanup_begin, args);
}

static PyObject *defer_end(PyObject *self, PyObject *args)
{
    (void)self;
    return simple(uf_cuda_defer_cleanup_end, args);
}

static PyObject *memory_info(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "|z", &target))
        return NULL;
    uf_error err;
    size_t f, t;
    if (uf_cuda_memory_info(target, &f, &t, &err) != 0)
        return ufpy_raise(&err);
    return Py_BuildValue("(nn)", (Py_ssize_t)f, (Py_ssize_t)t);
}

PyMethodDef ufpy_mm_methods[] = {
    {"set_memory_manager", set_memory_manager, METH_VARARGS,
     "set_memory_manager(target, manager_or_'path.so:factory'_or_None)"},
    {"memory_stats", memory_stats, METH_VARARGS, "memory_stats(target)"},
    {"memory_reset", memory_reset, METH_VARARGS, "memory_reset(target)"},
    {"memory_flush", memory_flush, METH_VARARGS, "memory_flush(target)"},
    {"defer_cleanup_begin", defer_begin, METH_VARARGS, NULL},
    {"defer_cleanup_end", defer_end, METH_VARARGS, NULL},
    {"memory_info", memory_info, METH_VARARGS,
     "memory_info(target) -> (free, total)"},
    {NULL, NULL, 0, NULL}};
