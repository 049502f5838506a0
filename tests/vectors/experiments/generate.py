#!/usr/bin/env python3
"""Writes cases.json: the experiment client's conformance vectors.

Hash-based expectations come from this independent Python implementation of the pinned
algorithm (engine/experiments/README.md), not from the TypeScript code under test; the other
expectations are written by hand from the spec's rules. Run: python3 generate.py
Tuples follow GrowthBook's cases.json style: [name, ...inputs, expected].
"""
import hashlib
import json
import os


def fnv1a32(text: str) -> int:
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def hash_point(key: str, scale: int) -> int:
    return fnv1a32(str(fnv1a32(key))) % scale


def allocation_point(uid, salt):
    return hash_point(uid + salt, 100)


def group_point(uid, salt):
    return hash_point("group|" + uid + salt, 10000) / 100


def layer_point(uid, layer):
    return hash_point(uid + layer, 1000) / 10


def choose_group(point, weights):
    total = sum(weights)
    if total <= 0:
        return -1
    cum = 0.0
    for i, w in enumerate(weights):
        cum += w / total * 100
        if w > 0 and point < cum:
            return i
    for i in range(len(weights) - 1, -1, -1):
        if weights[i] > 0:
            return i
    return -1


md5 = lambda s: hashlib.md5(s.encode("utf-8")).hexdigest()

IDS = ["alice", "user-42", "42", " padded ", "Jürgen", "Ñandú", "用户123", "пользователь", "😀", "emoji👍🏽id", "a" * 80]
SALTS = ["salt-1", "regmot-2024", "ü-salt"]

cases = {}

cases["fnv1a32"] = [
    ["empty string is the offset basis", "", 2166136261],
    ["'a' (published FNV-1a test vector)", "a", 0xE40C292C],
    ["'foobar' (published FNV-1a test vector)", "foobar", 0xBF9CF968],
] + [[f"UTF-8 bytes of {s!r}", s, fnv1a32(s)] for s in IDS + ["é", "e\u0301", "\U0001F600", "🇧🇷"]]

cases["hashPoint"] = [[f"double FNV-1a of {k!r} mod {sc}", k, sc, hash_point(k, sc)] for k in IDS for sc in (100, 1000, 10000)]

cases["allocation"] = []
for uid in IDS:
    for salt in SALTS:
        p = allocation_point(uid, salt)
        cases["allocation"].append([f"{uid!r}+{salt!r}: point {p} is in iff < allocation {p + 1}", uid, salt, p + 1, True])
        cases["allocation"].append([f"{uid!r}+{salt!r}: point {p} is out at allocation {p} (half-open)", uid, salt, p, False])
    cases["allocation"].append([f"{uid!r}: allocation 0 lets nobody in", uid, "salt-1", 0, False])
    cases["allocation"].append([f"{uid!r}: allocation 100 lets everybody in", uid, "salt-1", 100, True])

cases["groupPoint"] = [[f"group point of {u!r}+{s!r}", u, s, group_point(u, s)] for u in IDS for s in SALTS]

cases["chooseGroup"] = [
    ["point 0 is in the first group", 0, [50, 50], 0],
    ["point 49.99 is in the first half", 49.99, [50, 50], 0],
    ["point 50 starts the second group (half-open [50, 100))", 50, [50, 50], 1],
    ["point 99.99 is in the last group", 99.99, [50, 50], 1],
    ["weights rescale to 100: [1, 3] puts 25 in the second group", 25, [1, 3], 1],
    ["weights rescale to 100: [1, 3] puts 24.99 in the first group", 24.99, [1, 3], 0],
    ["a zero-weight group is never chosen", 0, [0, 100], 1],
    ["three groups 20/30/50: 20 is the second", 20, [20, 30, 50], 1],
    ["three groups 20/30/50: 50 is the third", 50, [20, 30, 50], 2],
    ["equal thirds: 33.33 is still the first", 33.33, [1, 1, 1], 0],
    ["equal thirds: 33.34 is the second", 33.34, [1, 1, 1], 1],
    ["all weights zero: no group", 10, [0, 0], -1],
]

cases["layer"] = []
for uid in IDS:
    p = layer_point(uid, "lobby")
    cases["layer"].append([f"{uid!r}: layer point {p} inside [{p}, {p}+0.1)", uid, "lobby", {"lower_bound": p, "upper_bound": round(p + 0.1, 1)}, True])
    cases["layer"].append([f"{uid!r}: layer point {p} outside [0, {p}) (upper bound excluded)", uid, "lobby", {"lower_bound": 0, "upper_bound": p}, False])
    cases["layer"].append([f"{uid!r}: any of several bounds", uid, "lobby", [{"lower_bound": 0, "upper_bound": 0}, {"lower_bound": 0, "upper_bound": 100}], True])
    cases["layer"].append([f"{uid!r}: no bounds means not in the layer", uid, "lobby", [], False])

cases["layerPoint"] = [[f"layer hash of {u!r} divided by 10 (not integer division)", u, l, layer_point(u, l)] for u in IDS for l in ("lobby", "checkout")]

attrs = {"userId": "u-1", "geo.code": "BR", "os.name": "iOS", "custom.vip": "true", "email": "punter@example.com"}
C = lambda name, value, sign: {"name": name, "value": value, "condition_sign": sign}
cases["conditions"] = [
    ["equal holds on the same text", [C("geo.code", "BR", "equal")], "AND", attrs, False, True],
    ["equal compares trimmed text", [C("geo.code", " BR ", "equal")], "AND", attrs, False, True],
    ["equal fails on other text", [C("geo.code", "ES", "equal")], "AND", attrs, False, False],
    ["equal is case-sensitive", [C("geo.code", "br", "equal")], "AND", attrs, False, False],
    ["not equal holds on other text", [C("geo.code", "ES", "not equal")], "AND", attrs, False, True],
    ["not equal fails on the same text", [C("geo.code", "BR", "not equal")], "AND", attrs, False, False],
    ["any of holds when one matches", [C("geo.code", ["ES", "BR"], "any of")], "AND", attrs, False, True],
    ["any of fails when none matches", [C("geo.code", ["ES", "DK"], "any of")], "AND", attrs, False, False],
    ["none of holds when none matches", [C("geo.code", ["ES", "DK"], "none of")], "AND", attrs, False, True],
    ["none of fails when one matches", [C("geo.code", ["ES", "BR"], "none of")], "AND", attrs, False, False],
    ["values compare as text: true equals 'true'", [C("custom.vip", True, "equal")], "AND", attrs, False, True],
    ["absent attribute: equal fails", [C("geo.city", "Rio", "equal")], "AND", attrs, False, False],
    ["absent attribute: not equal holds", [C("geo.city", "Rio", "not equal")], "AND", attrs, False, True],
    ["absent attribute: none of holds", [C("geo.city", ["Rio"], "none of")], "AND", attrs, False, True],
    ["AND needs every condition", [C("geo.code", "BR", "equal"), C("os.name", "Android", "equal")], "AND", attrs, False, False],
    ["OR needs any condition", [C("geo.code", "BR", "equal"), C("os.name", "Android", "equal")], "OR", attrs, False, True],
    ["OR fails when none holds", [C("geo.code", "ES", "equal"), C("os.name", "Android", "equal")], "OR", attrs, False, False],
    ["no conditions hold", [], "AND", attrs, False, True],
    ["private: MD5 of the visitor value is compared", [C("email", md5("punter@example.com"), "equal")], "AND", attrs, True, True],
    ["private: the raw value does not match", [C("email", "punter@example.com", "equal")], "AND", attrs, True, False],
    ["private: any of MD5 list", [C("userId", [md5("u-2"), md5("u-1")], "any of")], "AND", attrs, True, True],
    ["private: none of MD5 list", [C("userId", [md5("u-1")], "none of")], "AND", attrs, True, False],
    ["private: upper-case digest still matches", [C("userId", md5("u-1").upper(), "equal")], "AND", attrs, True, True],
]

cases["params"] = [
    ["bool is the text 'true'", "bool", "true", True],
    ["bool: 'TRUE' is not 'true'", "bool", "TRUE", False],
    ["bool: '1' is false", "bool", "1", False],
    ["bool: a JSON true counts as the text 'true'", "bool", True, True],
    ["json parses", "json", "{\"a\":[1,2]}", {"a": [1, 2]}],
    ["json that does not parse yields null", "json", "{a:", None],
    ["json of empty text yields null", "json", "", None],
    ["integer is parsed as a float", "integer", "42.7", 42.7],
    ["integer keeps the leading number", "integer", "12px", 12],
    ["number is parsed as a float", "number", "-0.5", -0.5],
    ["number that does not parse yields null", "number", "abc", None],
    ["string stays text", "string", "b-test", "b-test"],
    ["string of a number is its text", "string", 5, "5"],
]

R = lambda rid, value, default, conds=None, stmt=None: {k: v for k, v in {"id": rid, "value": value, "is_default": default, "conditions": conds, "conditional_statement": stmt}.items() if v is not None}
cases["flags"] = [
    ["the default rule applies when no rule matches", {"name": "quiz", "type": "bool", "rules": [R(1, "false", False, [C("geo.code", "ES", "equal")]), R(2, "true", True)]}, attrs, None, {"ok": True, "value": True, "source": "default"}],
    ["the first matching rule wins over the default", {"name": "quiz", "type": "bool", "rules": [R(1, "false", False, [C("geo.code", "BR", "equal")]), R(2, "true", True)]}, attrs, None, {"ok": True, "value": False, "source": "rule"}],
    ["rules are tried in order", {"name": "n", "type": "integer", "rules": [R(1, "1", False, [C("geo.code", "BR", "equal")]), R(2, "2", False, [C("os.name", "iOS", "equal")]), R(3, "3", True)]}, attrs, None, {"ok": True, "value": 1, "source": "rule"}],
    ["a non-default rule without conditions targets nobody", {"name": "n", "type": "string", "rules": [R(1, "x", False), R(2, "y", True)]}, attrs, None, {"ok": True, "value": "y", "source": "default"}],
    ["no default rule: the flag does not evaluate", {"name": "n", "type": "bool", "rules": [R(1, "true", False, [C("geo.code", "BR", "equal")])]}, attrs, None, {"ok": False, "code": "DEFAULT_RULE_COUNT"}],
    ["two default rules: the flag does not evaluate", {"name": "n", "type": "bool", "rules": [R(1, "true", True), R(2, "false", True)]}, attrs, None, {"ok": False, "code": "DEFAULT_RULE_COUNT"}],
    ["private flag compares MD5", {"name": "qa", "type": "bool", "is_private": True, "rules": [R(1, "true", False, [C("userId", [md5("u-1")], "any of")], "OR"), R(2, "false", True)]}, attrs, None, {"ok": True, "value": True, "source": "rule"}],
    ["the experiment group's value wins", {"name": "cta", "type": "string", "rules": [R(1, "Deposit", True)], "groups": [{"name": "b", "value": "Top up"}]}, attrs, "b", {"ok": True, "value": "Top up", "source": "experiment"}],
    ["a group without a value falls back to rules", {"name": "cta", "type": "string", "rules": [R(1, "Deposit", True)], "groups": [{"name": "b", "value": "Top up"}]}, attrs, "a", {"ok": True, "value": "Deposit", "source": "default"}],
    ["json flag value parses", {"name": "j", "type": "json", "rules": [R(1, "{\"max\":3}", True)]}, attrs, None, {"ok": True, "value": {"max": 3}, "source": "default"}],
]

def exp(**kw):
    base = {"name": "e", "salt": "salt-1", "allocation": 100, "groups": [{"name": "a"}, {"name": "b"}]}
    base.update(kw)
    return base

def natural(uid, e):
    if "layer_id" in e:
        b = e["layer_bounds"]
        bs = b if isinstance(b, list) else [b]
        p = layer_point(uid, e["layer_id"])
        if not any(x["lower_bound"] <= p < x["upper_bound"] for x in bs):
            return {"inExperiment": False, "index": -1, "reason": "notInLayer"}
    if allocation_point(uid, e["salt"]) >= e["allocation"]:
        return {"inExperiment": False, "index": -1, "reason": "notAllocated"}
    ws = [g.get("weight", 0) for g in e["groups"]] if any("weight" in g for g in e["groups"]) else [1] * len(e["groups"])
    return {"inExperiment": True, "index": choose_group(group_point(uid, e["salt"]), ws), "reason": "assigned"}

cases["assignment"] = []
for uid in IDS:
    e = exp(allocation=37, groups=[{"name": "a", "weight": 20}, {"name": "b", "weight": 30}, {"name": "c", "weight": 50}])
    cases["assignment"].append([f"{uid!r}: allocation then weighted group from independent hashes", e, uid, None, None, natural(uid, e)])
    e2 = exp(layer_id="lobby", layer_bounds={"lower_bound": 0, "upper_bound": 50})
    cases["assignment"].append([f"{uid!r}: layer [0, 50) before allocation", e2, uid, None, None, natural(uid, e2)])
cases["assignment"] += [
    ["forced group index wins over everything", exp(allocation=0), "alice", 1, 0, {"inExperiment": True, "index": 1, "reason": "forced"}],
    ["forced group index out of range is ignored", exp(allocation=0), "alice", 5, None, {"inExperiment": False, "index": -1, "reason": "notAllocated"}],
    ["a group's forced_user_list puts the unit in that group", exp(allocation=0, groups=[{"name": "a"}, {"name": "b", "forced_user_list": ["alice"]}]), "alice", None, 0, {"inExperiment": True, "index": 1, "reason": "forcedUser"}],
    ["sticky assignment wins over allocation 0", exp(allocation=0), "alice", None, 1, {"inExperiment": True, "index": 1, "reason": "sticky"}],
    ["sticky assignment wins over changed weights", exp(groups=[{"name": "a", "weight": 100}, {"name": "b", "weight": 0}]), "alice", None, 1, {"inExperiment": True, "index": 1, "reason": "sticky"}],
    ["a sticky index the config no longer has is ignored", exp(groups=[{"name": "a"}]), "alice", None, 3, {"inExperiment": True, "index": 0, "reason": "assigned"}],
    ["experiment forced_user_list skips allocation and layer", exp(allocation=0, layer_id="x", layer_bounds=[], forced_user_list=["alice"], groups=[{"name": "only"}]), "alice", None, None, {"inExperiment": True, "index": 0, "reason": "forcedUser"}],
    ["no groups: not in the experiment", exp(groups=[]), "alice", None, None, {"inExperiment": False, "index": -1, "reason": "noGroups"}],
]

cases["expiry"] = [
    ["an identifier set now counts", 0, 0, True],
    ["an identifier counts one millisecond before a day", 1000, 1000 + 86_400_000 - 1, True],
    ["an identifier stops counting exactly a day (86 400 000 ms) after it was set", 1000, 1000 + 86_400_000, False],
    ["an identifier never set does not count", None, 0, False],
]

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json")
with open(out, "w", encoding="utf-8") as f:
    json.dump(cases, f, ensure_ascii=False, indent=1)
    f.write("\n")
print(out, {k: len(v) for k, v in cases.items()})
