#!/usr/bin/env python3
"""Reference for examples/time_freezing/hopper_stance.yaml: the hopper of examples/hopper.yaml with
its foot pinned at the origin (sticking contact), from rest at q0 = (0, 0.4, 0, 0) under constant
torques u = (u_hip, u_knee). Index-1 form of the DAE

    M(q) a - J(q)^T lambda = h(q, v) + (0, 0, u_hip, u_knee),   J(q) a = -Jdot(q, v) v,

with M and h in the closed form of the stasis spec time_freezing.md §5.1 and J the Jacobian of
the foot position, integrated by classical RK4 with dt = 1e-5. Prints the state every 0.01 s and
stops where the contact force leaves the friction cone (lambda_n < 0 or |lambda_t| > 0.8 lambda_n),
after which the foot no longer sticks.

Usage: hopper_pinned_foot.py [u_hip u_knee t_end]   (default 1.23 0.047 0.03)
"""
import math
import sys


def solve(a, b):
    """Gaussian elimination with partial pivoting (no numpy on a bare Debian)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def acceleration(q, v, u):
    """Accelerations and contact force (lambda_t, lambda_n) of the pinned-foot DAE."""
    ph, pk = q[2], q[3]
    wh, wk = v[2], v[3]
    c1, s1 = math.cos(ph), math.sin(ph)
    c12, s12 = math.cos(ph + pk), math.sin(ph + pk)
    ck, sk = math.cos(pk), math.sin(pk)
    m = [[6.305, 0, -0.138112 * c1 - 0.0548 * c12, -0.0548 * c12],
         [0, 6.305, 0.138112 * s1 + 0.0548 * s12, 0.0548 * s12],
         [0, 0, 0.03205619 + 0.02192 * ck, 0.00868 + 0.01096 * ck],
         [0, 0, 0, 0.00868]]
    for i in range(4):
        for j in range(i):
            m[i][j] = m[j][i]
    h = [-0.138112 * wh**2 * s1 - 0.0548 * (wh + wk)**2 * s12,
         -0.138112 * wh**2 * c1 - 0.0548 * (wh + wk)**2 * c12 - 61.85205,
         0.01096 * wk * (2 * wh + wk) * sk - 1.35487872 * s1 - 0.537588 * s12 + u[0],
         -0.01096 * wh**2 * sk - 0.537588 * s12 + u[1]]
    jac = [[1, 0, -0.2 * c1 - 0.2 * c12, -0.2 * c12],   # d foot_x / dq
           [0, 1, 0.2 * s1 + 0.2 * s12, 0.2 * s12]]     # d foot_z / dq
    jdot_v = [0.2 * s1 * wh**2 + 0.2 * s12 * (wh + wk)**2,
              0.2 * c1 * wh**2 + 0.2 * c12 * (wh + wk)**2]
    kkt = [m[i] + [-jac[0][i], -jac[1][i]] for i in range(4)] + [jac[0] + [0, 0], jac[1] + [0, 0]]
    x = solve(kkt, h + [-jdot_v[0], -jdot_v[1]])
    return x[:4], x[4:]


def main():
    u = (float(sys.argv[1]), float(sys.argv[2])) if len(sys.argv) > 2 else (1.23, 0.047)
    t_end = float(sys.argv[3]) if len(sys.argv) > 3 else 0.03
    dt = 1e-5
    q, v, t = [0.0, 0.4, 0.0, 0.0], [0.0] * 4, 0.0
    steps = int(round(t_end / dt))
    for k in range(1, steps + 1):
        def rate(qq, vv):
            a, lam = acceleration(qq, vv, u)
            return vv, a, lam
        k1 = rate(q, v)
        k2 = rate([q[i] + dt / 2 * k1[0][i] for i in range(4)], [v[i] + dt / 2 * k1[1][i] for i in range(4)])
        k3 = rate([q[i] + dt / 2 * k2[0][i] for i in range(4)], [v[i] + dt / 2 * k2[1][i] for i in range(4)])
        k4 = rate([q[i] + dt * k3[0][i] for i in range(4)], [v[i] + dt * k3[1][i] for i in range(4)])
        q = [q[i] + dt / 6 * (k1[0][i] + 2 * k2[0][i] + 2 * k3[0][i] + k4[0][i]) for i in range(4)]
        v = [v[i] + dt / 6 * (k1[1][i] + 2 * k2[1][i] + 2 * k3[1][i] + k4[1][i]) for i in range(4)]
        t = k * dt
        lam_t, lam_n = acceleration(q, v, u)[1]
        if lam_n < 0 or abs(lam_t) > 0.8 * lam_n:
            print(f"t = {t:.5f}: the contact force ({lam_t:.4f}, {lam_n:.4f}) leaves the friction cone")
            break
        if k % 1000 == 0:
            print(f"t = {t:.2f}: q = {q!r}\n          v = {v!r}\n          lambda = ({lam_t:.4f}, {lam_n:.4f})")


if __name__ == "__main__":
    main()
