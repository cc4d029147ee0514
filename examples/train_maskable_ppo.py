"""Train a 2-player Classic Canasta seat with sb3-contrib's MaskablePPO: first against the
``random`` bot, then against the ``heuristic`` bot.

Usage (needs ``uv sync --extra rl-train``)::

    uv run python examples/train_maskable_ppo.py [--out runs/ppo-classic-2p]
        [--random-steps 80000] [--heuristic-steps 40000] [--seed 0] [--envs 4]

Each episode is one hand (``max_hands=1``) with the learner at a random seat; the reward is the
hand's score difference in thousands of points (``reward_scale=0.001``).  Saves
``OUT/after-random.zip`` and ``OUT/final.zip`` and prints the mean reward of the last
episodes of each phase.  Measure the result as a meldhall bot with ``examples/evaluate.py``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from meldhall.rl.gymnasium_env import MeldhallSingleSeatEnv


def make_env(opponents: str, seed: int):
    def build():
        env = MeldhallSingleSeatEnv("classic-canasta", players=2, seat=None,
                                    opponents=opponents, max_hands=1, reward_scale=0.001)
        env.reset(seed=seed)
        return Monitor(env)
    return build


def vec(opponents: str, n: int, seed: int) -> DummyVecEnv:
    return DummyVecEnv([make_env(opponents, seed + i) for i in range(n)])


def mean_recent(model: MaskablePPO) -> float:
    buf = model.ep_info_buffer
    return float(np.mean([e["r"] for e in buf])) if buf else float("nan")


class Progress(BaseCallback):
    """Prints the steps, the time and the mean reward of the last hands every rollout."""

    def __init__(self, label: str, start: float):
        super().__init__()
        self.label = label
        self.start = start

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        m = self.model
        since = time.perf_counter() - self.start
        print(f"  {self.label}: {m.num_timesteps} steps in all, {since:.0f} s since the start,"
              f" mean reward of the last {len(m.ep_info_buffer)} hands "
              f"{mean_recent(m):+.3f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(
        description="Train a 2-player Classic Canasta seat with sb3-contrib's MaskablePPO: "
        "first against the random bot, then against the heuristic bot (one hand per episode, "
        "reward the hand's score difference in thousands of points).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--out", default="runs/ppo-classic-2p",
                    help="folder for after-random.zip and final.zip")
    ap.add_argument("--random-steps", type=int, default=80_000,
                    help="learner steps against the random bot (about 466 s on 2 cores); "
                    "each phase runs whole rollouts of ENVS × 1024 steps, so it is rounded up")
    ap.add_argument("--heuristic-steps", type=int, default=40_000,
                    help="learner steps against the heuristic bot afterwards (rounded up too)")
    ap.add_argument("--seed", type=int, default=0, help="seeds the policy and the environments")
    ap.add_argument("--envs", type=int, default=4, help="environments stepped together")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    args = ap.parse_args()
    # small batches: one thread is faster than several on a shared machine; the masked
    # distribution's argument checks cost more than the network itself
    torch.set_num_threads(args.threads)
    torch.distributions.Distribution.set_default_validate_args(False)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model = MaskablePPO(
        "MlpPolicy", vec("random", args.envs, args.seed), seed=args.seed,
        n_steps=1024, batch_size=1024, n_epochs=2, learning_rate=3e-4, gamma=0.995,
        gae_lambda=0.95, ent_coef=0.01, policy_kwargs={"net_arch": [128, 128]},
        device="cpu", verbose=0)
    t0 = time.perf_counter()
    model.learn(total_timesteps=args.random_steps, callback=Progress("vs random", t0))
    model.save(out / "after-random.zip")
    print(f"vs random: {model.num_timesteps} steps in {time.perf_counter() - t0:.0f} s "
          "(the last rollout's update included), "
          f"mean reward of the last {len(model.ep_info_buffer)} hands "
          f"{mean_recent(model):+.3f} (thousands of points)", flush=True)
    model.set_env(vec("heuristic", args.envs, args.seed + 100))
    t1 = time.perf_counter()
    before = model.num_timesteps
    model.learn(total_timesteps=args.heuristic_steps, reset_num_timesteps=False,
                callback=Progress("vs heuristic", t0))
    model.save(out / "final.zip")
    print(f"vs heuristic: {model.num_timesteps - before} more steps in "
          f"{time.perf_counter() - t1:.0f} s, mean reward of the last "
          f"{len(model.ep_info_buffer)} hands {mean_recent(model):+.3f}", flush=True)
    print(f"total {time.perf_counter() - t0:.0f} s; saved {out / 'after-random.zip'} and "
          f"{out / 'final.zip'}")


if __name__ == "__main__":
    main()
