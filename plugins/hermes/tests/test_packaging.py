"""The three ways Hermes finds the plugin (folder, pip entry point), its dashboard schema and its `hermes memory-pool` commands."""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.metadata
import importlib.util
import io
import json
import os
import sys
import tempfile
import tomllib
import types
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, os.path.dirname(__file__))

import hermes_stand_in  # noqa: E402
from fake_service import FakeService  # noqa: E402

PLUGIN = hermes_stand_in.load_plugin()
config = sys.modules[PLUGIN.__name__ + ".config"]
PLUGIN_DIR = hermes_stand_in.PLUGIN_DIR


def load_by_path(module_name: str, path: Path):
    """How Hermes's dashboard loads `config_schema.py`: by path, never through the plugin package."""
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_cli_like_hermes(package: str):
    """Hermes imports `cli.py` as `<package>.cli` under an empty package shell, without running `__init__.py`."""
    shell = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(package, None, is_package=True))
    shell.__path__ = [str(PLUGIN_DIR)]
    sys.modules[package] = shell
    spec = importlib.util.spec_from_file_location(package + ".cli", PLUGIN_DIR / "cli.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[package + ".cli"] = module
    spec.loader.exec_module(module)
    return module


class PipEntryPoint(unittest.TestCase):
    def test_the_entry_point_loads_a_module_whose_register_hands_over_the_provider(self):
        project = tomllib.loads((hermes_stand_in.SOURCE_DIR / "pyproject.toml").read_text())
        points = project["project"]["entry-points"]["hermes_agent.memory_providers"]
        self.assertEqual(points, {"memory-pool": "memory_pool_hermes"})
        self.assertEqual(project["tool"]["setuptools"]["package-dir"], {"memory_pool_hermes": "."})
        # Installed, the package is this folder under that name: link it so, and load it as Hermes does.
        if hermes_stand_in.INSTALLED:
            loaded = hermes_stand_in.load_installed_plugin()  # the real install: InstalledCopy checks it
        else:
            site = tempfile.mkdtemp(prefix="site-")
            os.symlink(PLUGIN_DIR, Path(site) / "memory_pool_hermes")
            sys.path.insert(0, site)
            self.addCleanup(sys.path.remove, site)
            loaded = importlib.metadata.EntryPoint("memory-pool", "memory_pool_hermes", "hermes_agent.memory_providers").load()
        ctx = hermes_stand_in.FakeContext()
        loaded.register(ctx)
        self.assertEqual(ctx.providers[0].name, "memory-pool")
        # Hermes reads config_schema.py and cli.py from the entry point's package folder.
        origin = Path(loaded.__file__).parent
        self.assertTrue((origin / "config_schema.py").is_file() and (origin / "cli.py").is_file())

    def test_the_folder_install_is_recognized_by_its_init_file(self):
        head = (PLUGIN_DIR / "__init__.py").read_text(encoding="utf-8")[:8192]
        self.assertIn("register_memory_provider", head)


if hermes_stand_in.INSTALLED:
    # Defined only for the installed run (install_and_test.sh), so the source-tree run has no skipped test.
    class InstalledCopy(unittest.TestCase):
        def test_the_tests_exercise_the_copy_pip_installed_through_its_entry_point(self):
            self.assertEqual(PLUGIN.__name__, "memory_pool_hermes")
            origin = Path(PLUGIN.__file__).resolve().parent
            self.assertEqual(origin, PLUGIN_DIR)
            self.assertNotEqual(origin, hermes_stand_in.SOURCE_DIR)
            self.assertIn("site-packages", origin.parts)
            dist = importlib.metadata.distribution("memory-pool-hermes")
            self.assertEqual(dist.version, tomllib.loads((hermes_stand_in.SOURCE_DIR / "pyproject.toml").read_text())
                             ["project"]["version"])
            shipped = {Path(str(f)).name for f in dist.files or [] if str(f).startswith("memory_pool_hermes/")}
            for name in ("__init__.py", "provider.py", "config_schema.py", "cli.py", "plugin.yaml", "README.md"):
                self.assertIn(name, shipped)
            self.assertFalse(any("tests" in Path(str(f)).parts for f in dist.files or []), "tests left the wheel")

        def test_outside_a_host_the_installed_package_does_not_import(self):
            import subprocess

            result = subprocess.run([sys.executable, "-c", "import memory_pool_hermes"], capture_output=True, text=True)
            self.assertNotEqual(result.returncode, 0)
            self.assertIn("agent", result.stderr)


class DashboardSchema(unittest.TestCase):
    def test_the_schema_loads_on_a_host_that_has_the_schema_module_and_on_one_without(self):
        import host_config_schema as host_module

        packages = {"plugins": types.ModuleType("plugins"), "plugins.memory": types.ModuleType("plugins.memory"),
                    "plugins.memory.config_schema": host_module}
        with mock.patch.dict(sys.modules, packages):
            with_host = load_by_path("_hermes_memory_config_schema.memory-pool", PLUGIN_DIR / "config_schema.py")
        self.assertIsInstance(with_host.CONFIG_SCHEMA, host_module.ProviderConfigSchema)
        without = load_by_path("_schema_without_host", PLUGIN_DIR / "config_schema.py")
        for schema in (with_host.CONFIG_SCHEMA, without.CONFIG_SCHEMA):
            self.assertEqual((schema.name, schema.storage), ("memory-pool", "flat_json"))
            fields = {f.key: f for f in schema.fields}
            self.assertEqual(set(fields), set(config.ENV_VARS))  # every setting, and only those
            self.assertEqual((fields["api_key"].kind, fields["api_key"].env_key), ("secret", "MEMORY_POOL_API_KEY"))

    def test_values_the_dashboard_saves_are_the_ones_the_provider_reads(self):
        home = tempfile.mkdtemp()
        saved = Path(home) / "memory-pool" / "config.json"  # flat_json: $HERMES_HOME/<name>/config.json
        saved.parent.mkdir()
        saved.write_text(json.dumps({"bot": "ada", "prefetch_timeout": "3", "save_delegations": "true", "url": ""}))
        (Path(home) / "memory-pool.json").write_text(json.dumps({"url": "http://old:1", "bot": "old"}))
        loaded = config.load_config(home, env={})
        self.assertEqual((loaded.bot, loaded.prefetch_timeout, loaded.save_delegations, loaded.url),
                         ("ada", 3.0, True, "http://old:1"))


class HermesMemoryPoolCommands(unittest.TestCase):
    def setUp(self):
        self.service = FakeService()
        self.addCleanup(self.service.close)
        env = {"MEMORY_POOL_URL": self.service.url, "MEMORY_POOL_BOT": "mythos", "HERMES_HOME": tempfile.mkdtemp(),
               "MEMORY_POOL_API_KEY": "k1"}
        patcher = mock.patch.dict(os.environ, env)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.cli = load_cli_like_hermes("_hermes_user_memory.memory-pool__source_cli")

    def run_command(self, *argv):
        parser = argparse.ArgumentParser(prog="hermes")
        subparser = parser.add_subparsers(dest="command").add_parser("memory-pool")
        self.cli.register_cli(subparser)
        args = parser.parse_args(["memory-pool", *argv])
        out = io.StringIO()
        code = args.func(args, out=out)
        return code, out.getvalue()

    def test_hermes_finds_the_handler_under_the_providers_name(self):
        self.assertIs(getattr(self.cli, "memory-pool_command"), self.cli.memory_pool_command)

    def test_status_asks_the_service_with_the_key(self):
        code, out = self.run_command("status")
        self.assertEqual(code, 0, out)
        self.assertIn("ok (collection mem_mythos, 3 points", out)
        self.assertEqual(self.service.requests[0][:2], ("GET", "/bots/mythos/stats"))
        self.service.status = 401
        code, out = self.run_command("status")
        self.assertEqual(code, 1)
        self.assertIn(f"memory-pool at {self.service.url} refused the key", out)

    def test_status_without_a_bot_says_what_to_set(self):
        os.environ["MEMORY_POOL_BOT"] = ""
        code, out = self.run_command("status")
        self.assertEqual(code, 1)
        self.assertIn("MEMORY_POOL_BOT", out)
        self.assertEqual(self.service.requests, [])

    def test_search_and_forget(self):
        self.service.hits = [{"text": "Ada's cat\nis Tom", "speakers": "Ada", "score": 0.8, "messageIds": "m1,m2"}]
        code, out = self.run_command("search", "my", "cat", "--limit", "3")
        self.assertEqual(code, 0)
        self.assertIn("[0.80] Ada", out)
        self.assertIn("Ada's cat is Tom", out)
        self.assertEqual(self.service.posts("/retrieve")[0]["query_text"], "my cat")
        self.assertEqual(self.service.posts("/retrieve")[0]["limit"], 3)
        code, out = self.run_command("forget", "--id", "m1", "--id", "m2")
        self.assertEqual(code, 0)
        self.assertEqual(self.service.posts("/forget")[0]["message_ids"], ["m1", "m2"])
        self.run_command("forget", "--user", "telegram:42")
        self.assertEqual(self.service.posts("/forget")[1]["user_id"], "telegram:42")
        self.assertEqual(self.service.posts("/forget")[1]["_authorization"], "Bearer k1")


if __name__ == "__main__":
    unittest.main()
