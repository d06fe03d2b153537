import pytest

from sparsela import SparseMatrix, SparseVector


def test_vector_basics():
    v = SparseVector.from_dense([0, 3, 0, 4])
    assert v.nnz == 2
    assert v[1] == 3 and v[0] == 0
    assert v.items() == [(1, 3), (3, 4)]
    v[1] = 0
    assert v.nnz == 1
    with pytest.raises(IndexError):
        v[4]


def test_vector_arithmetic():
    a = SparseVector(4, {0: 1, 2: 5})
    b = SparseVector(4, {2: 1, 3: 2})
    assert (a + b).to_dense() == [1, 0, 6, 2]
    assert (a - b).to_dense() == [1, 0, 4, -2]
    assert (2 * a).to_dense() == [2, 0, 10, 0]
    assert a.dot(b) == 5
    assert -a == SparseVector(4, {0: -1, 2: -5})
    with pytest.raises(ValueError):
        a + SparseVector(3)


def test_matrix_setitem_keeps_only_nonzero():
    m = SparseMatrix(3, 3)
    m[0, 1] = 2
    m[2, 2] = 0
    assert m.nnz == 1
    assert m.nonzero_rows() == [0]
    m[0, 1] = 0
    assert m.nnz == 0 and m.nonzero_rows() == []


def test_matrix_add_and_dense():
    a = SparseMatrix.from_dense([[1, 0], [0, 2]])
    b = SparseMatrix.from_dense([[0, 3], [0, 1]])
    assert (a + b).to_dense() == [[1, 3], [0, 3]]
    assert (a - b).entries() == [(0, 0, 1), (0, 1, -3), (1, 1, 1)]
    assert (a * 3).to_dense() == [[3, 0], [0, 6]]


def test_matmul_and_identity():
    a = SparseMatrix.from_dense([[1, 2], [0, 1], [0, 0]])
    b = SparseMatrix.from_dense([[0, 1, 0], [4, 0, 0]])
    assert (a @ b).to_dense() == [[8, 1, 0], [4, 0, 0], [0, 0, 0]]
    assert SparseMatrix.identity(2) @ b == b


def test_matvec_and_transpose():
    a = SparseMatrix.from_dense([[1, 2], [3, 0]])
    assert a.matvec(SparseVector.from_dense([1, 1])).to_dense() == [3, 3]
    assert a.transpose().to_dense() == [[1, 3], [2, 0]]
    with pytest.raises(ValueError):
        a.matvec(SparseVector(3))
