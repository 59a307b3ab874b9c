package vtab

import (
	"modernc.org/sqlite/vtab"
)

// Panic-safe wrappers for the modernc binding (see safe.go): the module,
// tables and cursors handed to modernc's vtab package recover around
// every method and turn a panic into an error. As in the direct binding,
// a panic in Eof is kept and reported by the next Column, Rowid or Next.

type safeModule struct{ m vtab.Module }

func (s safeModule) Create(ctx vtab.Context, args []string) (t vtab.Table, err error) {
	defer recoverInto("xCreate", &err)
	panicPoint("xCreate")
	t, err = s.m.Create(ctx, args)
	return wrapTable(t), err
}

func (s safeModule) Connect(ctx vtab.Context, args []string) (t vtab.Table, err error) {
	defer recoverInto("xConnect", &err)
	panicPoint("xConnect")
	t, err = s.m.Connect(ctx, args)
	return wrapTable(t), err
}

// VolatileArgs passes the module's opt-in through (module.go): modernc
// looks for it on the module it is handed, which is this wrapper.
func (s safeModule) VolatileArgs() bool {
	v, ok := s.m.(vtab.VolatileArgsOpter)
	return ok && v.VolatileArgs()
}

func recoverInto(where string, err *error) {
	if p := recover(); p != nil {
		*err = internalError("", where, p)
	}
}

// recoverInto also keeps the error on the session (s may be nil).
func (s *Session) recoverInto(where string, err *error) {
	if p := recover(); p != nil {
		*err = internalError("", where, p)
		s.setErr(*err)
	}
}

func wrapTable(t vtab.Table) vtab.Table {
	if t == nil {
		return nil
	}
	return &safeTable{t: t, sess: sessionOf(t)}
}

// safeTable wraps a table; sess (nil for metadata tables) is told of a
// cursor's panic, since modernc drops the message of a failing xNext,
// xOpen or xRowid: the tetsql driver reports it from there.
type safeTable struct {
	t    vtab.Table
	sess *Session
}

func (s *safeTable) BestIndex(info *vtab.IndexInfo) (err error) {
	defer s.sess.recoverInto("xBestIndex", &err)
	panicPoint("xBestIndex")
	return s.t.BestIndex(info)
}

func (s *safeTable) Open() (c vtab.Cursor, err error) {
	defer s.sess.recoverInto("xOpen", &err)
	panicPoint("xOpen")
	c, err = s.t.Open()
	if c == nil || err != nil {
		return nil, err
	}
	return &safeCursor{c: c, sess: s.sess}, nil
}

func (s *safeTable) Disconnect() (err error) {
	defer recoverInto("xDisconnect", &err)
	panicPoint("xDisconnect")
	return s.t.Disconnect()
}

func (s *safeTable) Destroy() (err error) {
	defer recoverInto("xDestroy", &err)
	panicPoint("xDisconnect")
	return s.t.Destroy()
}

// updater is vtab.Updater; every table implements it (readOnly).
func (s *safeTable) updater() (vtab.Updater, error) {
	u, ok := s.t.(vtab.Updater)
	if !ok {
		return nil, readOnly{"table"}.err("changing it")
	}
	return u, nil
}

func (s *safeTable) Insert(cols []vtab.Value, rowid *int64) (err error) {
	defer s.sess.recoverInto("xUpdate", &err)
	panicPoint("xUpdate")
	u, err := s.updater()
	if err != nil {
		return err
	}
	return u.Insert(cols, rowid)
}

func (s *safeTable) Update(old int64, cols []vtab.Value, rowid *int64) (err error) {
	defer s.sess.recoverInto("xUpdate", &err)
	panicPoint("xUpdate")
	u, err := s.updater()
	if err != nil {
		return err
	}
	return u.Update(old, cols, rowid)
}

func (s *safeTable) Delete(old int64) (err error) {
	defer s.sess.recoverInto("xUpdate", &err)
	panicPoint("xUpdate")
	u, err := s.updater()
	if err != nil {
		return err
	}
	return u.Delete(old)
}

type safeCursor struct {
	c     vtab.Cursor
	sess  *Session
	fault error // a panic in Eof, see above
}

func (s *safeCursor) Filter(idxNum int, idxStr string, vals []vtab.Value) (err error) {
	defer s.sess.recoverInto("xFilter", &err)
	s.fault = nil
	panicPoint("xFilter")
	return s.c.Filter(idxNum, idxStr, vals)
}

func (s *safeCursor) Next() (err error) {
	defer s.sess.recoverInto("xNext", &err)
	if s.fault != nil {
		return s.fault
	}
	return s.c.Next()
}

func (s *safeCursor) Eof() (eof bool) {
	defer func() {
		if p := recover(); p != nil {
			s.fault, eof = internalError("", "xEof", p), false
			s.sess.setErr(s.fault)
		}
	}()
	if s.fault != nil {
		return false
	}
	return s.c.Eof()
}

func (s *safeCursor) Column(col int) (v vtab.Value, err error) {
	defer s.sess.recoverInto("xColumn", &err)
	if s.fault != nil {
		return nil, s.fault
	}
	return s.c.Column(col)
}

func (s *safeCursor) Rowid() (id int64, err error) {
	defer s.sess.recoverInto("xRowid", &err)
	if s.fault != nil {
		return 0, s.fault
	}
	panicPoint("xRowid")
	return s.c.Rowid()
}

func (s *safeCursor) Close() (err error) {
	defer s.sess.recoverInto("xClose", &err)
	panicPoint("xClose")
	return s.c.Close()
}
