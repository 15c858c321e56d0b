/* ufjit._core's module: the process's context, errors as exceptions, and
 * what the package asks of the library besides kernels. */
#include "ufpy.h"

static uf_context *context;
/* ufjit.errors' factory: (code, name, message, file, line, column) ->
 * an exception instance */
static PyObject *error_factory;

uf_context *ufpy_context(void)
{
    if (context == NULL) {
        uf_error err;
        context = uf_context_new(&err);
        if (context == NULL)
            return (uf_context *)ufpy_raise(&err);
    }
    return context;
}

PyObject *ufpy_raise(const uf_error *err)
{
    const char *msg = err->message[0] ? err->message : uf_strerror(err->code);
    if (err->code == UF_ERR_NOMEM && err->message[0] == '\0')
        return PyErr_NoMemory();
    if (error_factory == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s", msg);
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(
        error_factory, "isssii", err->code, uf_err_name(err->code), msg,
        err->file, err->line, err->column);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *set_error_factory(PyObject *self, PyObject *fn)
{
    (void)self;
    if (!PyCallable_Check(fn))
        return PyErr_Format(PyExc_TypeError, "a callable is needed");
    Py_XSETREF(error_factory, Py_NewRef(fn));
    Py_RETURN_NONE;
}

static PyObject *version(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return PyUnicode_FromString(uf_version());
}

/* The targets this build has, in the registry's order. */
static PyObject *targets(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && i < uf_target_count(); i++) {
        PyObject *s = PyUnicode_FromString(uf_target_name(i));
        if (s == NULL || PyList_Append(list, s) != 0)
            Py_CLEAR(list);
        Py_XDECREF(s);
    }
    return list;
}

static PyObject *load_source(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name, *source;
    if (!PyArg_ParseTuple(args, "ss", &name, &source))
        return NULL;
    uf_context *ctx = ufpy_context();
    if (ctx == NULL)
        return NULL;
    uf_error err;
    uf_module *m = uf_module_from_string(ctx, name, source, &err);
    if (m == NULL)
        return ufpy_raise(&err);
    return ufpy_module_new(m);
}

static PyMethodDef methods[] = {
    {"_set_error_factory", set_error_factory, METH_O,
     "Registers the callable that builds exceptions from ufjit errors."},
    {"version", version, METH_NOARGS, "The C library's version."},
    {"targets", targets, METH_NOARGS, "The targets this build has."},
    {"load_source", load_source, METH_VARARGS,
     "load_source(name, source) -> Module: parses a kernel file's text "
     "(errors name `name` as the file)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "ufjit._core",
    "The C core of ufjit: kernels compiled and called by libufjit.", -1,
    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&ufpy_array_type) < 0 ||
        PyType_Ready(&ufpy_stream_type) < 0 ||
        PyType_Ready(&ufpy_event_type) < 0 ||
        PyType_Ready(&ufpy_mmdriver_type) < 0 ||
        PyType_Ready(&ufpy_ufuncbase_type) < 0 ||
        PyType_Ready(&ufpy_module_type) < 0 ||
        PyType_Ready(&ufpy_func_type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddFunctions(m, ufpy_cuda_methods) != 0 ||
        PyModule_AddFunctions(m, ufpy_event_methods) != 0 ||
        PyModule_AddObjectRef(m, "Event", (PyObject *)&ufpy_event_type) ||
        PyModule_AddFunctions(m, ufpy_interop_methods) != 0 ||
        PyModule_AddFunctions(m, ufpy_mm_methods) != 0 ||
        PyModule_AddObjectRef(m, "Stream", (PyObject *)&ufpy_stream_type) ||
        PyModule_AddObjectRef(m, "Array", (PyObject *)&ufpy_array_type) ||
        PyModule_AddObjectRef(m, "UFuncBase",
                              (PyObject *)&ufpy_ufuncbase_type) ||
        PyModule_AddObjectRef(m, "Module", (PyObject *)&ufpy_module_type) ||
        PyModule_AddObjectRef(m, "Func", (PyObject *)&ufpy_func_type)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
