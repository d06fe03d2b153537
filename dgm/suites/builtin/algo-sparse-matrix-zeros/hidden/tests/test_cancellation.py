from sparsela import SparseMatrix, SparseVector


def test_vector_difference_with_itself_is_empty():
    v = SparseVector(5, {0: 2, 3: -7})
    d = v - v
    assert d.nnz == 0
    assert d.items() == []
    assert d == SparseVector(5)


def test_vector_partial_cancellation():
    a = SparseVector(4, {0: 1, 1: 2, 2: 3})
    b = SparseVector(4, {1: -2, 2: 1})
    s = a + b
    assert s.nnz == 2
    assert s.items() == [(0, 1), (2, 4)]
    assert s == SparseVector.from_dense([1, 0, 4, 0])


def test_vector_scaled_by_zero():
    v = SparseVector(3, {1: 4, 2: 1.5})
    assert (v * 0).nnz == 0
    assert 0 * v == SparseVector(3)
    assert (v * 0.0).items() == []


def test_matrix_difference_with_itself():
    a = SparseMatrix.from_dense([[1, 0, 2], [0, 0, 3], [4, 0, 0]])
    d = a - a
    assert d.nnz == 0
    assert d.nonzero_rows() == []
    assert d.entries() == []
    assert d == SparseMatrix(3, 3)


def test_matrix_sum_drops_cancelled_rows_and_entries():
    a = SparseMatrix.from_dense([[1, 2], [3, 0], [0, 5]])
    b = SparseMatrix.from_dense([[-1, 1], [-3, 0], [0, 0]])
    s = a + b
    assert s.entries() == [(0, 1, 3), (2, 1, 5)]
    assert s.nnz == 2
    assert s.nonzero_rows() == [0, 2]
    assert s == SparseMatrix.from_dense([[0, 3], [0, 0], [0, 5]])


def test_matrix_scaled_by_zero():
    a = SparseMatrix.from_dense([[1, 2], [3, 4]])
    z = a * 0
    assert z.nnz == 0 and z.nonzero_rows() == []
    assert 0 * a == SparseMatrix(2, 2)


def test_matmul_cancellation():
    a = SparseMatrix.from_dense([[1, 1], [2, 0]])
    b = SparseMatrix.from_dense([[1, 0], [-1, 0]])
    p = a @ b
    assert p.to_dense() == [[0, 0], [2, 0]]
    assert p.entries() == [(1, 0, 2)]
    assert p.nnz == 1
    assert p.nonzero_rows() == [1]
    assert p == SparseMatrix.from_dense([[0, 0], [2, 0]])


def test_matvec_cancellation():
    a = SparseMatrix.from_dense([[1, -1], [1, 1]])
    result = a.matvec(SparseVector.from_dense([3, 3]))
    assert result.items() == [(1, 6)]
    assert result == SparseVector.from_dense([0, 6])


def test_row_of_cancelled_matrix_is_empty_vector():
    a = SparseMatrix.from_dense([[5, 0], [0, 1]])
    b = SparseMatrix.from_dense([[5, 0], [0, 0]])
    d = a - b
    assert d.row(0).nnz == 0
    assert d.row(0) == SparseVector(2)
    assert d.row(1).items() == [(1, 1)]


def test_operations_without_cancellation_unchanged():
    a = SparseMatrix.from_dense([[1, 0], [0, 2]])
    b = SparseMatrix.from_dense([[0, 3], [0, 1]])
    assert (a + b).entries() == [(0, 0, 1), (0, 1, 3), (1, 1, 3)]
    assert (a @ b).entries() == [(0, 1, 3), (1, 1, 2)]
    v = SparseVector(3, {0: 1})
    w = SparseVector(3, {2: 1})
    assert (v + w).nnz == 2
