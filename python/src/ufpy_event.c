/* _core.Event: numba.cuda.event over uf_event (ufjit/cuda.h). */
#include "ufpy.h"

typedef struct {
    PyObject_HEAD
    uf_event *e;
} ufpy_event;

static void event_dealloc(ufpy_event *self)
{
    uf_event_destroy(self->e);
    PyObject_Free(self);
}

/* Driver calls may wait (synchronize) or queue work: without the GIL. */
#define CALL(expr)                                                          \
    do {                                                                    \
        Py_BEGIN_ALLOW_THREADS rc = (expr);                                 \
        Py_END_ALLOW_THREADS                                                \
    } while (0)

static PyObject *event_record(ufpy_event *self, PyObject *args)
{
    PyObject *so = NULL;
    uf_stream *s;
    if (!PyArg_ParseTuple(args, "|O", &so) || ufpy_stream_of(so, &s) != 0)
        return NULL;
    uf_error err;
    int rc;
    CALL(uf_event_record(self->e, s, &err));
    return rc != 0 ? ufpy_raise(&err) : Py_NewRef(Py_None);
}

static PyObject *event_wait(ufpy_event *self, PyObject *args)
{
    PyObject *so = NULL;
    uf_stream *s;
    if (!PyArg_ParseTuple(args, "|O", &so) || ufpy_stream_of(so, &s) != 0)
        return NULL;
    uf_error err;
    int rc;
    CALL(uf_stream_wait_event(s, self->e, &err));
    return rc != 0 ? ufpy_raise(&err) : Py_NewRef(Py_None);
}

static PyObject *event_synchronize(ufpy_event *self, PyObject *unused)
{
    (void)unused;
    uf_error err;
    int rc;
    CALL(uf_event_synchronize(self->e, &err));
    return rc != 0 ? ufpy_raise(&err) : Py_NewRef(Py_None);
}

static PyObject *event_query(ufpy_event *self, PyObject *unused)
{
    (void)unused;
    uf_error err;
    int rc = uf_event_query(self->e, &err);
    return rc < 0 ? ufpy_raise(&err) : PyBool_FromLong(rc);
}

PyTypeObject ufpy_event_type;

static PyObject *event_elapsed(ufpy_event *self, PyObject *end)
{
    if (!PyObject_TypeCheck(end, &ufpy_event_type)) {
        PyErr_SetString(PyExc_TypeError, "elapsed: another Event");
        return NULL;
    }
    uf_error err;
    float ms;
    if (uf_event_elapsed_ms(self->e, ((ufpy_event *)end)->e, &ms, &err) != 0)
        return ufpy_raise(&err);
    return PyFloat_FromDouble(ms);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)event_record, METH_VARARGS,
     "record(stream=None): records the event on the stream."},
    {"wait", (PyCFunction)event_wait, METH_VARARGS,
     "wait(stream=None): the stream's later work waits for the event."},
    {"synchronize", (PyCFunction)event_synchronize, METH_NOARGS,
     "Waits on the host for the event."},
    {"query", (PyCFunction)event_query, METH_NOARGS,
     "Whether the work before the event's record has run."},
    {"elapsed", (PyCFunction)event_elapsed, METH_O,
     "elapsed(end) -> milliseconds from this event to end."},
    {NULL, NULL, 0, NULL}};

PyTypeObject ufpy_event_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ufjit._core.Event",
    .tp_basicsize = sizeof(ufpy_event),
    .tp_dealloc = (destructor)event_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A CUDA event of one target.",
    .tp_methods = event_methods,
};

/* event_create(target, timing) -> Event */
static PyObject *event_create(PyObject *self, PyObject *args)
{
    (void)self;
    const char *target = NULL;
    int timing = 1;
    if (!PyArg_ParseTuple(args, "|zp", &target, &timing))
        return NULL;
    uf_error err;
    uf_event *e = uf_event_create(target, timing, &err);
    if (e == NULL)
        return ufpy_raise(&err);
    ufpy_event *o = PyObject_New(ufpy_event, &ufpy_event_type);
    if (o == NULL) {
        uf_event_destroy(e);
        return NULL;
    }
    o->e = e;
    return (PyObject *)o;
}

PyMethodDef ufpy_event_methods[] = {
    {"event_create", event_create, METH_VARARGS,
     "event_create(target=None, timing=True) -> Event"},
    {NULL, NULL, 0, NULL}};
