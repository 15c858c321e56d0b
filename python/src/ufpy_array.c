/* _core.Array and the buffer protocol in both directions. */
#include "ufpy.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* struct-module format characters of each dtype, as NumPy writes them:
 * NumPy's default int64 is C's long where long has 64 bits (its 'q',
 * long long, is a dtype of its own that prints as `dtype=int64`) */
#if LONG_MAX == INT64_MAX
#define INT64_FORMAT "l"
#define UINT64_FORMAT "L"
#else
#define INT64_FORMAT "q"
#define UINT64_FORMAT "Q"
#endif
static const char *const format_of[UF_NTYPES] = {
    [UF_BOOL] = "?", [UF_INT8] = "b", [UF_UINT8] = "B", [UF_INT16] = "h",
    [UF_UINT16] = "H", [UF_INT32] = "i", [UF_UINT32] = "I",
    [UF_INT64] = INT64_FORMAT, [UF_UINT64] = UINT64_FORMAT,
    [UF_FLOAT32] = "f",
    [UF_FLOAT64] = "d", [UF_COMPLEX64] = "Zf", [UF_COMPLEX128] = "Zd"};

/* The dtype of a buffer's format: native (or little-endian: x86-64 only)
 * byte order, one element of a type ufjit has. A switch, not a table
 * search: every array of every call comes through here. */
static int dtype_of_format(const char *fmt, Py_ssize_t itemsize,
                           uf_dtype *out)
{
    const char *f = fmt ? fmt : "B";
    if (*f == '>' || *f == '!') {
        PyErr_Format(PyExc_TypeError,
                     "ufjit: arrays in big-endian byte order (format '%s') "
                     "are not supported; use .astype(native dtype)", fmt);
        return -1;
    }
    if (*f == '@' || *f == '=' || *f == '<')
        f++;
    char kind = 0; /* 'i', 'u', 'f', 'c', 'b' */
    if (f[0] == 'Z' && (f[1] == 'f' || f[1] == 'd') && f[2] == 0)
        kind = 'c';
    else if (f[0] != 0 && f[1] == 0)
        switch (f[0]) {
        case '?': kind = 'b'; break;
        case 'b': case 'h': case 'i': case 'l': case 'q': case 'n':
            kind = 'i'; break;
        case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N':
            kind = 'u'; break;
        case 'f': case 'd': kind = 'f'; break;
        default: break;
        }
    static const signed char by_size[][5] = { /* -1: none */
        /* itemsize 1, 2, 4, 8, 16 */
        ['b'] = {UF_BOOL, -1, -1, -1, -1},
        ['i'] = {UF_INT8, UF_INT16, UF_INT32, UF_INT64, -1},
        ['u'] = {UF_UINT8, UF_UINT16, UF_UINT32, UF_UINT64, -1},
        ['f'] = {-1, -1, UF_FLOAT32, UF_FLOAT64, -1},
        ['c'] = {-1, -1, -1, UF_COMPLEX64, UF_COMPLEX128},
    };
    int slot = itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2
             : itemsize == 8 ? 3 : itemsize == 16 ? 4 : -1;
    if (kind != 0 && slot >= 0 && by_size[(int)kind][slot] >= 0) {
        *out = (uf_dtype)by_size[(int)kind][slot];
        return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "ufjit: unsupported element type (buffer format '%s', %zd "
                 "bytes): ufjit has bool, int8..int64, uint8..uint64, "
                 "float32, float64, complex64 and complex128",
                 fmt ? fmt : "B", itemsize);
    return -1;
}

/* Called when the last view of a wrapped buffer goes, possibly on a
 * thread that does not hold the GIL. */
static void release_buffer(void *ctx, void *data)
{
    (void)data;
    PyGILState_STATE g = PyGILState_Ensure();
    PyBuffer_Release(ctx);
    PyMem_Free(ctx);
    PyGILState_Release(g);
}

/* A Python str as uf_array_from_ucs4's string array. */
static uf_array *string_array(PyObject *obj)
{
    Py_UCS4 *cp = PyUnicode_AsUCS4Copy(obj);
    if (cp == NULL)
        return NULL;
    uf_error err;
    uf_array *a = uf_array_from_ucs4(cp, (size_t)PyUnicode_GET_LENGTH(obj),
                                     &err);
    PyMem_Free(cp);
    if (a == NULL)
        ufpy_raise(&err);
    return a;
}

uf_array *ufpy_array_from_object(PyObject *obj, bool writable)
{
    if (PyObject_TypeCheck(obj, &ufpy_array_type)) {
        uf_array *a = ((ufpy_array *)obj)->a;
        if (writable && !(uf_array_flags(a) & UF_ARRAY_WRITEABLE)) {
            PyErr_SetString(PyExc_ValueError,
                            "ufjit: output array is read-only");
            return NULL;
        }
        return uf_array_retain(a);
    }
    if (PyUnicode_Check(obj)) /* a string argument of an njit function */
        return string_array(obj);
    Py_buffer *view = PyMem_Malloc(sizeof *view);
    if (view == NULL)
        return (uf_array *)PyErr_NoMemory();
    int flags = PyBUF_RECORDS_RO | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) != 0) {
        PyMem_Free(view);
        return NULL;
    }
    uf_dtype dt;
    if (dtype_of_format(view->format, view->itemsize, &dt) != 0)
        goto fail;
    if (view->ndim > UF_MAXDIMS) {
        PyErr_Format(PyExc_ValueError, "ufjit: %d dimensions (at most %d)",
                     view->ndim, UF_MAXDIMS);
        goto fail;
    }
    int64_t shape[UF_MAXDIMS], strides[UF_MAXDIMS];
    for (int i = 0; i < view->ndim; i++) {
        shape[i] = view->shape[i];
        strides[i] = view->strides[i];
    }
    uf_error err;
    uf_array *a = uf_array_wrap(dt, view->ndim, shape, strides, view->buf,
                                !view->readonly, release_buffer, view, &err);
    if (a == NULL) {
        ufpy_raise(&err);
        goto fail;
    }
    return a;
fail:
    PyBuffer_Release(view);
    PyMem_Free(view);
    return NULL;
}

PyObject *ufpy_array_new(uf_array *a)
{
    ufpy_array *self = PyObject_New(ufpy_array, &ufpy_array_type);
    if (self == NULL) {
        uf_array_release(a);
        return NULL;
    }
    self->a = a;
    const int64_t *shape = uf_array_shape(a), *strides = uf_array_strides(a);
    for (int i = 0; i < uf_array_ndim(a); i++) {
        self->shape[i] = (Py_ssize_t)shape[i];
        self->strides[i] = (Py_ssize_t)strides[i];
    }
    return (PyObject *)self;
}

static void array_dealloc(ufpy_array *self)
{
    uf_array_release(self->a);
    PyObject_Free(self);
}

static int array_getbuffer(ufpy_array *self, Py_buffer *view, int flags)
{
    uf_array *a = self->a;
    if (uf_array_device(a).type != UF_DEVICE_HOST) {
        PyErr_SetString(PyExc_BufferError,
                        "ufjit: a device array has no host buffer: copy it "
                        "to the host first");
        return -1;
    }
    bool readonly = !(uf_array_flags(a) & UF_ARRAY_WRITEABLE);
    if ((flags & PyBUF_WRITABLE) && readonly) {
        PyErr_SetString(PyExc_BufferError, "ufjit: the array is read-only");
        return -1;
    }
    view->buf = uf_array_data(a);
    view->obj = Py_NewRef((PyObject *)self);
    view->len = (Py_ssize_t)uf_array_nbytes(a);
    view->readonly = readonly;
    view->itemsize = (Py_ssize_t)uf_array_itemsize(a);
    view->format = (flags & PyBUF_FORMAT)
                       ? (char *)format_of[uf_array_dtype(a)]
                       : NULL;
    view->ndim = uf_array_ndim(a);
    view->shape = (flags & PyBUF_ND) ? self->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? self->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    /* a consumer that cannot take strides gets C order or nothing */
    if (!(flags & PyBUF_STRIDES)) {
        if (!(uf_array_flags(a) & UF_ARRAY_C_CONTIGUOUS)) {
            Py_CLEAR(view->obj);
            PyErr_SetString(PyExc_BufferError,
                            "ufjit: the array is not C-contiguous");
            return -1;
        }
    }
    return 0;
}

static PyBufferProcs array_as_buffer = {
    .bf_getbuffer = (getbufferproc)array_getbuffer,
};

static PyObject *array_get_dtype(ufpy_array *self, void *closure)
{
    (void)closure;
    return PyUnicode_FromString(uf_dtype_name(uf_array_dtype(self->a)));
}

static PyObject *array_get_on_device(ufpy_array *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(uf_array_device(self->a).type == UF_DEVICE_CUDA);
}

static PyObject *dims_tuple(int n, const int64_t *v)
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

static PyObject *array_get_shape(ufpy_array *self, void *closure)
{
    (void)closure;
    return dims_tuple(uf_array_ndim(self->a), uf_array_shape(self->a));
}

static PyObject *array_get_strides(ufpy_array *self, void *closure)
{
    (void)closure;
    return dims_tuple(uf_array_ndim(self->a), uf_array_strides(self->a));
}

static PyObject *array_get_flags(ufpy_array *self, void *closure)
{
    (void)closure;
    int f = uf_array_flags(self->a);
    return Py_BuildValue("{sOsOsO}", "C_CONTIGUOUS",
                         f & UF_ARRAY_C_CONTIGUOUS ? Py_True : Py_False,
                         "F_CONTIGUOUS",
                         f & UF_ARRAY_F_CONTIGUOUS ? Py_True : Py_False,
                         "WRITEABLE",
                         f & UF_ARRAY_WRITEABLE ? Py_True : Py_False);
}

static PyObject *array_get_data(ufpy_array *self, void *closure)
{
    (void)closure;
    return PyLong_FromVoidPtr(uf_array_data(self->a));
}

static PyGetSetDef array_getset[] = {
    {"shape", (getter)array_get_shape, NULL, NULL, NULL},
    {"strides", (getter)array_get_strides, NULL, "in bytes", NULL},
    {"flags", (getter)array_get_flags, NULL, NULL, NULL},
    {"data_ptr", (getter)array_get_data, NULL,
     "the address of the first element (a device address on a device)",
     NULL},
    {"dtype", (getter)array_get_dtype, NULL, "the dtype's name", NULL},
    {"on_device", (getter)array_get_on_device, NULL,
     "whether the memory is a CUDA device's", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ufpy_array_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.Array",
    .tp_basicsize = sizeof(ufpy_array),
    .tp_dealloc = (destructor)array_dealloc,
    .tp_as_buffer = &array_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A ufjit array; numpy.asarray() views it without copying.",
    .tp_getset = array_getset,
};
