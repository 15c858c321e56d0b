/* The Python shapes of the interop protocols over include/ufjit/interop.h:
 * __cuda_array_interface__ dicts and DLPack capsules, both ways. The C
 * library does the work (validation, streams, lifetimes); this file only
 * converts. */
#include "ufpy.h"

#include <string.h>
#include <ufjit/interop.h>

#define VERSIONED "dltensor_versioned"
#define LEGACY "dltensor"
#define USED_VERSIONED "used_dltensor_versioned"
#define USED_LEGACY "used_dltensor"

static PyObject *int_tuple(int n, const int64_t *v)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (x == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* cai_export(array) -> the __cuda_array_interface__ dict */
static PyObject *cai_export(PyObject *self, PyObject *arg)
{
    (void)self;
    uf_array *a = ufpy_array_from_object(arg, false);
    if (a == NULL)
        return NULL;
    uf_cai c;
    uf_error err;
    int rc = uf_array_to_cai(a, &c, &err);
    uf_array_release(a);
    if (rc != 0)
        return ufpy_raise(&err);
    PyObject *shape = int_tuple(c.ndim, c.shape);
    PyObject *strides = c.has_strides ? int_tuple(c.ndim, c.strides)
                                      : Py_NewRef(Py_None);
    PyObject *stream = c.has_stream ? PyLong_FromSsize_t(c.stream)
                                    : Py_NewRef(Py_None);
    PyObject *d = NULL;
    if (shape && strides && stream)
        d = Py_BuildValue("{sOsss(NO)sOsisO}", "shape", shape, "typestr",
                          c.typestr, "data",
                          PyLong_FromSize_t((size_t)c.data),
                          c.readonly ? Py_True : Py_False, "strides",
                          strides, "version", c.version, "stream", stream);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    Py_XDECREF(stream);
    return d;
}

static void release_owner(void *ctx, void *data)
{
    (void)data;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF((PyObject *)ctx);
    PyGILState_Release(g);
}

/* An int64 list of a dict entry into v; -1 with an exception. */
static int dims_of(PyObject *seq, const char *what, int64_t *v, int *n)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (len > UF_MAXDIMS) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d entries", what,
                     UF_MAXDIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        v[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
    }
    *n = (int)len;
    Py_DECREF(fast);
    return 0;
}

/* cai_import(desc, target, consumer_stream, owner) -> Array: `owner` is
 * kept alive until the array's last view goes. */
static PyObject *cai_import(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *d, *stream_o = Py_None, *owner = Py_None;
    const char *target = NULL;
    if (!PyArg_ParseTuple(args, "O!|zOO", &PyDict_Type, &d, &target,
                          &stream_o, &owner))
        return NULL;
    uf_cai c;
    memset(&c, 0, sizeof c);
    PyObject *v;
    if (!(v = PyDict_GetItemString(d, "shape")) ||
        dims_of(v, "shape", c.shape, &c.ndim) != 0)
        return PyErr_Occurred() ? NULL
                                : PyErr_Format(PyExc_ValueError,
                                               "CAI: no 'shape'");
    if (!(v = PyDict_GetItemString(d, "typestr")) || !PyUnicode_Check(v))
        return PyErr_Format(PyExc_ValueError, "CAI: no 'typestr' string");
    const char *ts = PyUnicode_AsUTF8(v);
    if (ts == NULL)
        return NULL;
    if (strlen(ts) >= sizeof c.typestr)
        return PyErr_Format(PyExc_ValueError, "CAI: typestr '%s'", ts);
    strcpy(c.typestr, ts);
    if (!(v = PyDict_GetItemString(d, "data")) || !PyTuple_Check(v) ||
        PyTuple_GET_SIZE(v) != 2)
        return PyErr_Format(PyExc_ValueError,
                            "CAI: 'data' is (pointer, readonly)");
    c.data = (uintptr_t)PyLong_AsSize_t(PyTuple_GET_ITEM(v, 0));
    if (PyErr_Occurred())
        return NULL;
    c.readonly = PyObject_IsTrue(PyTuple_GET_ITEM(v, 1));
    c.version = 0;
    if ((v = PyDict_GetItemString(d, "version")) != NULL &&
        (c.version = (int)PyLong_AsLong(v)) == -1 && PyErr_Occurred())
        return NULL;
    if ((v = PyDict_GetItemString(d, "strides")) != NULL && v != Py_None) {
        int n;
        if (dims_of(v, "strides", c.strides, &n) != 0)
            return NULL;
        if (n != c.ndim)
            return PyErr_Format(PyExc_ValueError,
                                "CAI: %d strides for %d dimensions", n,
                                c.ndim);
        c.has_strides = true;
    }
    v = PyDict_GetItemString(d, "mask");
    c.has_mask = v != NULL && v != Py_None;
    if ((v = PyDict_GetItemString(d, "stream")) != NULL && v != Py_None) {
        c.has_stream = true;
        c.stream = PyLong_AsSsize_t(v);
        if (c.stream == -1 && PyErr_Occurred())
            return NULL;
    }
    uf_stream *consumer;
    if (ufpy_stream_of(stream_o, &consumer) != 0)
        return NULL;
    Py_INCREF(owner);
    uf_error err;
    uf_array *a = uf_array_from_cai(&c, target, consumer, release_owner,
                                    owner, &err);
    if (a == NULL) {
        Py_DECREF(owner);
        return ufpy_raise(&err);
    }
    return ufpy_array_new(a);
}

static void versioned_capsule_free(PyObject *cap)
{
    /* not consumed: the producer's tensor is ours to delete */
    if (PyCapsule_IsValid(cap, VERSIONED)) {
        DLManagedTensorVersioned *t = PyCapsule_GetPointer(cap, VERSIONED);
        if (t && t->deleter)
            t->deleter(t);
    }
}

static void legacy_capsule_free(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, LEGACY)) {
        DLManagedTensor *t = PyCapsule_GetPointer(cap, LEGACY);
        if (t && t->deleter)
            t->deleter(t);
    }
}

/* dlpack_export(array, stream, versioned, device_type, device_id, copy)
 * -> capsule, __dlpack__'s arguments as the protocol gives them:
 * stream None or an int, versioned: max_version >= (1, 0), device_type
 * -1 when dl_device is None, copy None/False/True. */
static PyObject *dlpack_export(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *arr, *stream_o = Py_None, *copy_o = Py_None;
    int versioned = 1, dev_type = -1, dev_id = 0;
    if (!PyArg_ParseTuple(args, "O|OpiiO", &arr, &stream_o, &versioned,
                          &dev_type, &dev_id, &copy_o))
        return NULL;
    uf_dlpack_request r = {.copy = copy_o == Py_None ? -1
                                                     : PyObject_IsTrue(copy_o)};
    if (stream_o != Py_None) {
        r.has_stream = true;
        r.stream = PyLong_AsSsize_t(stream_o);
        if (r.stream == -1 && PyErr_Occurred())
            return NULL;
    }
    if (dev_type >= 0) {
        r.has_device = true;
        r.device.device_type = (DLDeviceType)dev_type;
        r.device.device_id = dev_id;
    }
    uf_array *a = ufpy_array_from_object(arr, false);
    if (a == NULL)
        return NULL;
    uf_error err;
    PyObject *cap = NULL;
    if (versioned) {
        DLManagedTensorVersioned *t;
        if (uf_array_to_dlpack_ex(a, &r, &t, &err) != 0)
            ufpy_raise(&err);
        else if (!(cap = PyCapsule_New(t, VERSIONED,
                                       versioned_capsule_free)))
            t->deleter(t);
    } else {
        DLManagedTensor *t;
        if (uf_array_to_dlpack_legacy(a, &r, &t, &err) != 0)
            ufpy_raise(&err);
        else if (!(cap = PyCapsule_New(t, LEGACY, legacy_capsule_free)))
            t->deleter(t);
    }
    uf_array_release(a);
    return cap;
}

/* dlpack_import(capsule) -> Array: consumes the capsule (renamed "used_",
 * as the protocol requires), the tensor's deleter run when the array's
 * last view goes. */
static PyObject *dlpack_import(PyObject *self, PyObject *cap)
{
    (void)self;
    uf_error err;
    uf_array *a;
    if (PyCapsule_IsValid(cap, VERSIONED)) {
        DLManagedTensorVersioned *t = PyCapsule_GetPointer(cap, VERSIONED);
        if (PyCapsule_SetName(cap, USED_VERSIONED) != 0)
            return NULL;
        a = uf_array_from_dlpack(t, &err);
    } else if (PyCapsule_IsValid(cap, LEGACY)) {
        DLManagedTensor *t = PyCapsule_GetPointer(cap, LEGACY);
        if (PyCapsule_SetName(cap, USED_LEGACY) != 0)
            return NULL;
        a = uf_array_from_dlpack_legacy(t, &err);
    } else
        return PyErr_Format(PyExc_ValueError,
                            "from_dlpack: not an unused DLPack capsule "
                            "('dltensor_versioned' or 'dltensor')");
    return a ? ufpy_array_new(a) : ufpy_raise(&err);
}

/* dlpack_device(array) -> (device_type, device_id) */
static PyObject *dlpack_device(PyObject *self, PyObject *arg)
{
    (void)self;
    uf_array *a = ufpy_array_from_object(arg, false);
    if (a == NULL)
        return NULL;
    uf_error err;
    DLManagedTensorVersioned *t;
    uf_dlpack_request r = {.has_stream = true, .stream = -1, .copy = 0};
    int rc = uf_array_to_dlpack_ex(a, &r, &t, &err);
    uf_array_release(a);
    if (rc != 0)
        return ufpy_raise(&err);
    PyObject *res = Py_BuildValue("(ii)", (int)t->dl_tensor.device.device_type,
                                  (int)t->dl_tensor.device.device_id);
    t->deleter(t);
    return res;
}

static PyObject *stream_handle(PyObject *self, PyObject *arg)
{
    (void)self;
    uf_stream *s;
    if (ufpy_stream_of(arg, &s) != 0)
        return NULL;
    return PyLong_FromSsize_t(uf_stream_handle(s));
}

PyMethodDef ufpy_interop_methods[] = {
    {"cai_export", cai_export, METH_O,
     "cai_export(array) -> __cuda_array_interface__ dict"},
    {"cai_import", cai_import, METH_VARARGS,
     "cai_import(desc, target=None, stream=None, owner=None) -> Array"},
    {"dlpack_export", dlpack_export, METH_VARARGS,
     "dlpack_export(array, stream=None, versioned=True, device_type=-1, "
     "device_id=0, copy=None) -> capsule"},
    {"dlpack_import", dlpack_import, METH_O,
     "dlpack_import(capsule) -> Array"},
    {"dlpack_device", dlpack_device, METH_O,
     "dlpack_device(array) -> (device_type, device_id)"},
    {"stream_handle", stream_handle, METH_O,
     "stream_handle(stream) -> the CUstream as an int"},
    {NULL, NULL, 0, NULL}};
