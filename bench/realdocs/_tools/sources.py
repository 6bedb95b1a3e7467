"""Every document of bench/realdocs: where it comes from, its licence, how its truth is made.

DOCS entries: kind (folder), name (test input, relative to the kind folder),
files [(repo, commit, path in repo, file name here)] (first = the input, the
rest = twins), ex (extractor module), truth_from (files the truth is read from;
default the input), lic (key of LIC), notes, score_parents (false when the truth's
parent links come from an irregular publisher outline and should not be scored).  TREES: Markdown doc trees copied
file by file.
"""

LIC = {
    'au': 'CC-BY-4.0: Commonwealth of Australia legislation from the Federal Register of Legislation '
          '(legislation.gov.au), "Sourced from the Federal Register of Legislation"; redistributed unchanged as '
          'committed in the repository (repository code AGPL-3.0; its federal/legislation/Copyright.md states the CC BY 4.0 licence)',
    'uslm': 'Public domain: work of the US Government (17 U.S.C. 105); repository dedicates it worldwide under CC0-1.0 (LICENSE.md)',
    'eu': 'EU document: (c) European Union, reuse authorised with acknowledgement of the source (Commission Decision '
          '2011/833/EU); repository code EUPL-1.2',
    'fr': 'French parliamentary text (texte adopte of the Senat): official legislative act, free reuse (Senat open data, '
          'Licence Ouverte / Etalab 2.0); repository code EUPL-1.2',
    'rfc': 'RFC text: IETF Trust Legal Provisions (RFCs may be copied and distributed in full); repository BSD-3-Clause',
    'w3c': 'W3C Software and Document License (repository LICENSE.md)',
    'docx4j': 'Apache-2.0 (repository LICENSE)',
    'nist': 'Public domain in the US: NIST publication, work of the US Government (17 U.S.C. 105); repository is a mirror without licence file',
    'markitdown': 'MIT (repository LICENSE, (c) Microsoft Corporation)',
    'pptx': 'MIT (repository LICENSE, (c) Steve Canny)',
    'oc_ref': 'CC0-1.0 (repository LICENSE: "Unless stated otherwise in the relevant file or folder, the material in this repository is licensed under CC0")',
    'httpx': 'BSD-3-Clause (repository LICENSE.md, (c) Encode OSS Ltd)',
    'ietf_id': 'Internet-Draft of the IETF HTTPbis WG: IETF Trust Legal Provisions / BCP 78 (Internet-Drafts may be copied '
               'and distributed in full); the repository is the working group\'s draft archive (contributions under the IETF Note Well)',
    'usc': 'Public domain: United States Code as published by the Office of the Law Revision Counsel (work of the US Government, '
           '17 U.S.C. 105); the repository mirrors the OLRC USLM 1.0 release 113-31 (July 2013)',
    'asd': 'CC-BY-4.0: Australian Signals Directorate (Commonwealth of Australia) publication, Markdown mirror '
           '(repository LICENSE: "materials originally published by the Australian government, and made available under '
           'the Creative Commons Attribution 4.0 International Licence")',
}

R_STV = ('AndrewConway/ConcreteSTV', '22490a0787b8b5cd43b3ee426aa5705cc2d75064')
R_USLM = ('usgpo/uslm', '100338992150c276aae5544d01d9b821a27eb383')
R_TUL = ('AlessioNar/tulit', '35d2ec478edad83df6a1a4e2f598c955c8ee1722')
R_X2R = ('ietf-tools/xml2rfc', '55ccf550452b62aa28f59ae289aa99fd09430d89')
R_DID = ('w3c/did-core', 'e2591dc822da1802868efd2256a75a983335c721')
R_VC = ('w3c/vc-data-model', '979c4af1cfe2224ed7b0ee5ec4d7a009a465812b')
R_D4J = ('plutext/docx4j', 'c09797573256c0abac8529008df7336125ea5685')
R_NIST = ('fractional-ciso/NIST-Cybersecurity-Documents', '60a85fcc609e6a79839079b21be53a97e611b1b2')
R_MID = ('microsoft/markitdown', 'a51f725d7ff4cdfe3bb6ad2ce2c04d98bf5f1f00')
R_PPTX = ('scanny/python-pptx', '278b47b1dedd5b46ee84c286e77cdfb0bf4594be')
R_HTTPX = ('encode/httpx', 'ae1b9f66238f75ced3ced5e4485408435de10768')
R_OCR = ('OpenChain-Project/Reference-Material', '96e434edda73e5aac006bcb59d841bbd31dd4a93')
R_TLS_PAGES = ('tlswg/tls13-rfc', '455b012de5c411f4db908de54a517dfbeeb8208c')   # gh-pages build "from ea26862"
R_TLS = ('tlswg/tls13-rfc', 'ea26862535b2369c282acb6b7e3729aa7b7a1085')
R_HTTPWG = ('httpwg/http-core', 'bde37f634681bd5462568b73aa722af9c9a3ef5e')
R_USC = ('opengovfoundation/us-federal-code', 'b39fd6cf4e62c84aa8efe30877cd8635f29a2853')
R_PR = ('w3c/payment-request', 'b245e2728de98a7e12b1ead0b3c13342a0237fb9')
R_PMI = ('w3c/payment-method-id', 'd8f252e6083ae7dbd5112ec560d798afe18efebf')
R_ASD = ('CXVII-Tech/mirror_cybersecurity-docs-au', 'dbcb665f4d71bce954a58b187427674f95f4b673')

DOCS = []


def doc(kind, name, files, ex, lic, notes, truth_from=None, score_parents=True, split=None):
    """split None: drawn by build.splits_of (the first 31 documents); a value (\"holdout2\") is
    fixed for a later batch and keeps that batch out of the alternation, so adding it never
    re-draws the earlier dev/holdout split."""
    DOCS.append(dict(kind=kind, name=name, files=files, ex=ex, lic=lic, notes=notes,
                     truth_from=truth_from or [name], score_parents=score_parents, split=split))


# 1. statute PDFs (Parts/Divisions, letter-suffixed sections); truth = publisher's outline
doc('statute-pdf', 'au-commonwealth-electoral-act-1918-vol1-c2022c00074.pdf',
    [(R_STV, 'federal/legislation/C2022C00074VOL01.pdf', None)], 'pdf', 'au',
    'Commonwealth Electoral Act 1918 (Cth), compilation C2022C00074 volume 1 (Parts I-XVIII, ss 1-273B...): Parts, '
    'Divisions, Subdivisions and letter-suffixed sections (4AA, 7A, 200DL, 273AA); bookmarks written by the Office of Parliamentary Counsel')
doc('statute-pdf', 'au-commonwealth-electoral-act-1918-vol2-c2022c00074.pdf',
    [(R_STV, 'federal/legislation/C2022C00074VOL02.pdf', None)], 'pdf', 'au',
    'Commonwealth Electoral Act 1918 (Cth), compilation C2022C00074 volume 2 (Parts XX-XXII, ss 286A-396, Schedules 1-3, endnotes): '
    'lettered Subdivisions (Subdivision A, B ...) under Divisions 1A, 2 ...; sections 287AA, 292B ...; bookmarks by the publisher')
doc('statute-pdf', 'au-electoral-amendment-assurance-of-senate-counting-act-2021-c2021a00135.pdf',
    [(R_STV, 'federal/legislation/C2021A00135.pdf', None)], 'pdf', 'au',
    'Electoral Legislation Amendment (Assurance of Senate Counting) Act 2021 (Cth), as made: an amending Act '
    '(Schedules > Parts > amendment items, inserted sections 273AA-273AC, 283A); bookmarks by the publisher. '
    'Its outline nests everything under "Contents" and puts inserted sections beside the Act\'s own: '
    'parents are kept as the outline has them but flagged score_parents=false', score_parents=False)

# 2./9. legislation XML as inputs in their own right; truth = their elements
doc('legislation-xml', 'us-bill-118-s1325-rs.uslm.xml',
    [(R_USLM, 'bill-version-samples-september-2024/BILLS-118s1325rs.xml', None)], 'uslm', 'uslm',
    'US Senate bill S. 1325 (118th Congress), reported in Senate: USLM 2.x bill XML (GPO sample); SEC. 7 defines terms with <term>')
doc('legislation-xml', 'us-bill-116-hr2157-ih.uslm.xml',
    [(R_USLM, 'bill-version-samples-september-2024/H2157_IH.XML', None)], 'uslm', 'uslm',
    'US House bill H.R. 2157 (116th Congress, supplemental appropriations), introduced: USLM 2.x bill XML (GPO sample); Titles > Sec. 101...; <term> definitions; many <ref> to the US Code')
doc('legislation-xml', 'eu-directive-proposal-vehicle-registration.akn.xml',
    [(R_TUL, 'tests/data/sources/eu/eurlex/akn/DIR-cmcxketrh00ca8x00qxqd29bn-en.xml', None)], 'akn', 'eu',
    'European Commission proposal for a Directive on vehicle registration documents (recast), AKN4EU XML written by LEOS: '
    'Chapters > Articles > paragraphs > points; Art. 2 Definitions; internal <ref>s to articles')
doc('legislation-xml', 'eu-council-regulation-restrictive-measures-excerpt.akn4eu.xml',
    [(R_TUL, 'tests/data/sources/eu/eurlex/akn/akn4eu.xml', None)], 'akn', 'eu',
    'EU Council regulation on restrictive measures (AKN4EU sample in the repository): Article 1 definitions with nested points (a)(i)...; articles without headings')
doc('legislation-xml', 'fr-senat-texte-adopte-tas24-021.akn.xml',
    [(R_TUL, 'tests/data/sources/member_states/france/akn/tas24-021.akn.xml', None)], 'akn', 'fr',
    'French Senate adopted text no. 21 (2024-2025 session), Akoma Ntoso: articles with Latin suffixes (Article 1er A, 4 bis, 4 ter) and numbered alineas (I., 1°, a))')

# 3./4. specifications
doc('specs', 'rfc6635.txt',
    [(R_X2R, 'tests/valid/rfc6635.txt', None), (R_X2R, 'tests/input/rfc6635.xml', 'rfc6635.v2-source.xml')],
    'rfc_v2', 'rfc', 'RFC 6635 (RFC Editor Model, Version 2): xml2rfc text rendering + the v2 XML source it was made from; '
    'sections nested 5 deep (2.1.2.1.1)', truth_from=['rfc6635.v2-source.xml'])
doc('specs', 'rfc8446.txt',
    [(R_TLS_PAGES, 'rfc8446.txt', None), (R_TLS, 'rfc8446.xml', 'rfc8446.v2-source.xml')],
    'rfc_v2', 'rfc', 'RFC 8446 (TLS 1.3, 160 pages): xml2rfc text of the RFC Editor\'s final AUTH48 source (gh-pages build '
    '455b012 "from ea26862") + that v2 XML source (commit ea26862); Appendices A-E with A.1.., unnumbered Contributors',
    truth_from=['rfc8446.v2-source.xml'])
doc('specs', 'w3c-did-core-respec-source.html', [(R_DID, 'index.html', None)], 'respec', 'w3c',
    'Decentralized Identifiers (DIDs) v1.0/1.1 editor\'s draft, ReSpec source (numbers, TOC and references are added by ReSpec in the browser)')
doc('specs', 'w3c-vc-data-model-respec-source.html', [(R_VC, 'index.html', None)], 'respec', 'w3c',
    'Verifiable Credentials Data Model v2.x editor\'s draft, ReSpec source; many <dfn> terms and [[[#id]]] section links')

# 5. Word documents
doc('docx', 'uslm-2.0-review-guide.docx', [(R_USLM, 'USLM-2_0-Review-Guide-v2_0_12-clean.docx', None)], 'docx', 'uslm',
    'GPO review guide for USLM 2.0 (Word, Heading 1-3 auto-numbered 1, 6.1, 6.1.1 through the heading styles\' numPr; Title-styled cover page)')
doc('docx', 'docx4j-article-section-NotIsLgl.docx',
    [(R_D4J, 'docx4j-core-tests/src/test/java/org/docx4j/model/listnumbering/article-section-NotIsLgl.docx', None)], 'docx', 'docx4j',
    'docx4j numbering test: "Article I." / "Section I.01" / "(a)" legal numbering WITHOUT isLgl (roman in the section label); '
    'the text carries [expect]..[/expect] with the label Word prints; computed labels match all 6')
doc('docx', 'docx4j-getting-started-russian.docx', [(R_D4J, 'docs/Docx4j_Russian.docx', None)], 'docx', 'docx4j',
    'Russian translation of the docx4j Getting Started manual (Cyrillic headings, Heading 1/2, Title style)')
doc('docx', 'docx4j-sample-docx.docx', [(R_D4J, 'docx4j-samples-docx-export-fo/sample-docs/word/sample-docx.docx', None)], 'docx', 'docx4j',
    'docx4j export sample: Heading 1 sections over tables, paragraph/run properties, bullets & numbering, images')

# 6. PDFs with outlines
for out, path, note in [
        ('nist-cswp-cybersecurity-framework-1.1.pdf', 'NIST.CSWP.04162018.pdf', 'NIST Cybersecurity Framework 1.1 (2018); numbers like 1.0, 3.1; Appendix A-C'),
        ('nist-sp800-184-cyber-event-recovery.pdf', 'NIST.SP.800-184.pdf', 'NIST SP 800-184 (2016), 4 outline levels'),
        ('nist-sp800-185-sha3-derived-functions.pdf', 'NIST.SP.800-185.pdf', 'NIST SP 800-185 (2016): section 2 Glossary (2.1 Terms and Acronyms), functions as numbered sections'),
        ('nist-sp800-171r1-cui.pdf', 'SP800-171r1.pdf', 'NIST SP 800-171 Rev. 1 (2016): "Chapter 1: Introduction" / lower-case "1.1 purpose and applicability" outline items'),
        ('nist-sp800-40r3-patch-management.pdf', 'SP800-40r3.pdf', 'NIST SP 800-40 Rev. 3 (2013)')]:
    doc('pdf', out, [(R_NIST, path, None)], 'pdf', 'nist', note + '; outline (bookmarks) written by the publisher')

# 7. PPTX / XLSX
doc('pptx', 'markitdown-test.pptx', [(R_MID, 'packages/markitdown/tests/test_files/test.pptx', None)], 'pptx', 'markitdown',
    'markitdown test deck: 6 slides with title placeholders, a table, a chart, nested group shapes, an image')
doc('pptx', 'markitdown-ocr-pptx-complex-layout.pptx', [(R_MID, 'packages/markitdown-ocr/tests/ocr_test_data/pptx_complex_layout.pptx', None)],
    'pptx', 'markitdown', 'markitdown-ocr test slide: title + text boxes + image in a complex layout')
doc('pptx', 'python-pptx-ph-populated-placeholders.pptx', [(R_PPTX, 'features/steps/test_files/ph-populated-placeholders.pptx', None)],
    'pptx', 'pptx', 'python-pptx acceptance-test deck: 9 slides whose placeholders hold tables, charts, pictures, text; most slides have no title')
doc('pptx', 'openchain-onboarding-slides-generic-1.0.pptx',
    [(R_OCR, 'OpenChain-Adoption-Guides/Legacy/Onboarding-Slides/en/OpenChain-Onboarding-Slides-Generic-1.0.pptx', None)], 'pptx', 'oc_ref',
    'OpenChain onboarding deck (10 slides): title slide without a title placeholder, content slides with title + body placeholders')
doc('xlsx', 'openchain-open-source-policy-template-iso5230-2025-09-25.xlsx',
    [(R_OCR, 'Open-Source-Policy-Templates/ISO-IEC-5230-(OpenChain 2.1)/en/Open-Source-Policy-Template-en-OpenChain2.1-ISO5230-2025-09-25.xlsx', None)],
    'xlsx', 'oc_ref', 'OpenChain open source policy template workbook (8 sheets: Start Here, Policy Mapping, Example Policy Text, '
    '1 - Roles ... 5 - Training); title rows above header rows, a leading empty column on some sheets')
doc('xlsx', 'openchain-capability-maturity-model-iso5230-v1.1.xlsx',
    [(R_OCR, 'OpenChain-Maturity-Models/OpenChain-Capability-Maturity-Model-ISO-IEC-5230-(OpenChain 2.1)-Version-1.0/en/'
             'OpenChain-Capability-Maturity-Model-ISO-IEC-5230-(OpenChain 2.1)-Version-1.1.xlsx', None)],
    'xlsx', 'oc_ref', 'OpenChain capability maturity model workbook (Release Notes sheet + a 28-column Capability Model sheet under a title row)')
doc('xlsx', 'markitdown-test.xlsx', [(R_MID, 'packages/markitdown/tests/test_files/test.xlsx', None)], 'xlsx', 'markitdown',
    'markitdown test workbook: 2 sheets with a header row (one sheet named by a UUID)')
doc('xlsx', 'markitdown-ocr-xlsx-complex-layout.xlsx', [(R_MID, 'packages/markitdown-ocr/tests/ocr_test_data/xlsx_complex_layout.xlsx', None)],
    'xlsx', 'markitdown', 'markitdown-ocr test workbook: 3 sheets whose first row is a report title above the real header row')

# 8. Markdown doc trees
TREES = [dict(kind='markdown', name='uslm-docs', repo=R_USLM, path='', lic='uslm', extra=[],
              files=['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'USLM-User-Guide.md', 'USLM-2_0-Review-Guide-v2_0_12.md',
                     'USLM-2_0-Review-Guide-2_0_17.md', 'USLM-2_1-ReviewGuide.md'],
              notes='USLM schema documentation (the top-level Markdown files of usgpo/uslm): the User Guide has typed numbered '
                    'headings "## 1.1 Overview" down to ####; USLM-2_0-Review-Guide-v2_0_12.md is the Markdown edition of docx/uslm-2.0-review-guide.docx'),
         dict(kind='markdown', name='httpx-docs', repo=R_HTTPX, path='docs', lic='httpx',
              extra=[('mkdocs.yml', 'httpx-docs.mkdocs.yml')],
              notes='HTTPX project documentation (docs/ with advanced/; MkDocs Material admonitions, fenced code, relative links); nav order in markdown/httpx-docs.mkdocs.yml')]


# --- holdout2 (issue 14, session 6): a fresh batch fixed as "holdout2" before anyone tuned on it ---
H2 = 'holdout2'
doc('legislation-xml', 'us-usc-title09-arbitration-113-31.uslm1.xml', [(R_USC, 'usc09.xml', None)], 'uslm1', 'usc',
    'US Code Title 9 (Arbitration), OLRC USLM 1.0 (release 113-31): Chapters 1-4 > sections §§ 1-16, 201-208, 301-307, '
    '401-402 > subsections; editorial notes (<notes>) between sections are not provisions', split=H2)
doc('legislation-xml', 'us-usc-title13-census-113-31.uslm1.xml', [(R_USC, 'usc13.xml', None)], 'uslm1', 'usc',
    'US Code Title 13 (Census), OLRC USLM 1.0 (release 113-31): Chapters > Subchapters (roman) > sections > subsections/'
    'paragraphs; § 1 Definitions (terms not marked up); many repealed/omitted sections', split=H2)
for _p, _name, _note in [
        ('p4-conditional', 'draft-ietf-httpbis-p4-conditional-26', 'HTTP/1.1 Conditional Requests (became RFC 7232)'),
        ('p5-range', 'draft-ietf-httpbis-p5-range-26', 'HTTP/1.1 Range Requests (became RFC 7233)'),
        ('p7-auth', 'draft-ietf-httpbis-p7-auth-26', 'HTTP/1.1 Authentication (became RFC 7235)')]:
    doc('specs', _name + '.txt',
        [(R_HTTPWG, 'preRFC723x/26/%s.txt' % _name, None), (R_HTTPWG, 'preRFC723x/26/%s.xml' % _name, _name + '.v2-source.xml')],
        'rfc_v2', 'ietf_id', 'Internet-Draft %s: xml2rfc v2 text + the v2 XML it was made from (the WG\'s clean-for-DTD '
        'output, committed beside it); paginated, numbered sections to 3 levels, Appendices A-C, many <xref>s' % _note,
        truth_from=[_name + '.v2-source.xml'], split=H2)
doc('specs', 'w3c-payment-request-respec-source.html', [(R_PR, 'index.html', None)], 'respec', 'w3c',
    'Payment Request API editor\'s draft, ReSpec source: WebIDL interfaces, algorithms, many <dfn> terms', split=H2)
doc('specs', 'w3c-payment-method-id-respec-source.html', [(R_PMI, 'index.html', None)], 'respec', 'w3c',
    'Payment Method Identifiers editor\'s draft, ReSpec source: a short spec with <dfn> terms and internal links', split=H2)
doc('docx', 'docx4j-headers-footers-guide.docx', [(R_D4J, 'docs/headers_footers.docx', None)], 'docx', 'docx4j',
    'docx4j developer guide to headers and footers: Title, Heading 2/3 (no Heading 1), lists', split=H2)
doc('docx', 'docx4j-opendope-conventions.docx', [(R_D4J, 'docx4j-samples-docx4j/sample-docs/databinding/conventions.docx', None)],
    'docx', 'docx4j', 'OpenDoPE content-control conventions sample: Title + 17 Heading 1, numbered lists, content controls', split=H2)
doc('docx', 'docx4j-w15-repeating-section.docx', [(R_D4J, 'docs/developer/w15RepeatingSection_cf_OpenDoPE.docx', None)],
    'docx', 'docx4j', 'docx4j note comparing Word 2013 repeating sections with OpenDoPE: Title, Heading 1/2, lists, tables', split=H2)
doc('pdf', 'nist-ir8114-lightweight-cryptography.pdf', [(R_NIST, 'IR8114.pdf', None)], 'pdf', 'nist',
    'NISTIR 8114 Report on Lightweight Cryptography (2017); outline 4 levels deep; outline (bookmarks) written by the publisher', split=H2)
doc('pdf', 'nist-sp800-124r1-mobile-device-security.pdf', [(R_NIST, 'SP800-124r1.pdf', None)], 'pdf', 'nist',
    'NIST SP 800-124 Rev. 1 Managing the Security of Mobile Devices in the Enterprise (2013); appendices; outline by the publisher', split=H2)
doc('pptx', 'docx4j-pptx4j-autoshapes.pptx', [(R_D4J, 'docx4j-samples-pptx4j/sample-docs/AutoShapes.pptx', None)], 'pptx', 'docx4j',
    'pptx4j sample deck: one slide per DrawingML preset shape, each slide titled by the preset name (line, rect, star5 ...)', split=H2)
doc('xlsx', 'docx4j-xlsx4j-comments.xlsx', [(R_D4J, 'docx4j-samples-xlsx4j/sample-docs/comments.xlsx', None)], 'xlsx', 'docx4j',
    'xlsx4j sample workbook: a cell with a comment on Sheet1, two empty sheets', split=H2)
doc('xlsx', 'markitdown-ocr-xlsx-multiple-images.xlsx', [(R_MID, 'packages/markitdown-ocr/tests/ocr_test_data/xlsx_multiple_images.xlsx', None)],
    'xlsx', 'markitdown', 'markitdown-ocr test workbook: 3 sheets (Overview, Details, Summary) with a title row and images', split=H2)
_ISM = 'mirror_asd-acsc/mirror_ism/sep-2025'
TREES.append(dict(kind='markdown', name='asd-ism-sep-2025', repo=R_ASD, path=_ISM, lic='asd', extra=[], split=H2,
                  files=[_ISM + '/' + n for n in [
                      '00. ISM - Information security manual (September 2025).md',
                      '01. ISM - Using the Information security manual (September 2025).md',
                      '02. ISM - Cybersecurity principles (September 2025).md',
                      '03. ISM - Guidelines for cybersecurity roles (September 2025).md',
                      '04. ISM - Guidelines for cybersecurity incidents (September 2025).md',
                      '05. ISM - Guidelines for procurement and outsourcing (September 2025).md',
                      '06. ISM - Guidelines for cybersecurity documentation (September 2025).md',
                      '07. ISM - Guidelines for physical security (September 2025).md',
                      '08. ISM - Guidelines for personnel security (September 2025).md',
                      '09. ISM - Guidelines for communications infrastructure (September 2025).md',
                      '10. ISM - Guidelines for communications systems (September 2025).md',
                      '11. ISM - Guidelines for enterprise mobility (September 2025).md',
                      '12. ISM - Guidelines for evaluated products (September 2025).md',
                      '13. ISM - Guidelines for information technology equipment (September 2025).md',
                      '14. ISM - Guidelines for media (September 2025).md',
                      '15. ISM - Guidelines for system hardening (September 2025).md',
                      '16. ISM - Guidelines for system management (September 2025).md',
                      '17. ISM - Guidelines for system monitoring (September 2025).md',
                      '18. ISM - Guidelines for software development (September 2025).md',
                      '19. ISM - Guidelines for database systems (September 2025).md',
                      '20. ISM - Guidelines for email (September 2025).md',
                      '21. ISM - Guidelines for networking (September 2025).md',
                      '22. ISM - Guidelines for cryptography (September 2025).md',
                      '23. ISM - Guidelines for gateways (September 2025).md',
                      '24. ISM - Guidelines for data transfers (September 2025).md',
                      '25. ISM - Cybersecurity terminology (September 2025).md']],
                  notes='Australian Government Information Security Manual (ISM), September 2025, Markdown mirror of the 26 '
                        'chapters (00-25): "# NN. ISM - ..." title, "## **Topic**" / "### **Control heading**" headings wrapped in '
                        'bold, control ids (ISM-0123) and revision lines in the text; 25 is the terminology glossary (not marked up '
                        'as definitions)'))


# --- trial7 (session 14): documents of the seventh user trial, truth from their own markup ---
doc('pdf', 'nist-sp800-63b-digital-identity-authentication.pdf', [(R_NIST, 'NIST.SP.800-63b.pdf', None)], 'pdf_contents', 'nist',
    'NIST SP 800-63B Digital Identity Guidelines: Authentication and Lifecycle Management (June 2017, with the 2017-12-01 '
    'errata); no outline: truth from the printed table of contents; a note printed up the left margin of every page, '
    'level-2 section numbers ("4.2") drawn without text, tables whose cells hold section numbers', split='trial7')

doc('pdf', 'nist-sp800-150-cyber-threat-information-sharing.pdf',
    [(R_NIST, 'NIST SP 800-150 Guide to Cyber Threat Information Sharing, 2016-10-04 (Final).pdf', None)], 'pdf',
    'nist', 'NIST SP 800-150 Guide to Cyber Threat Information Sharing (October 2016); 34 bookmarks, one root (the '
    'title) over Table of Contents (bookmarked before the Executive Summary printed ahead of it), sections 1-4.5.3 '
    'and Appendices A-D; Appendix B Glossary is a two-column table (22 terms), Appendix C Acronyms two columns of '
    '48 rows; a note printed up the left margin of every page', split='trial7')

# --- trial7 (session 14): documents a fresh user tried in trial 7, fixed as split "trial7" ---
# (the trial's RFC 8446 xml2rfc source is byte-identical to specs/rfc8446.v2-source.xml, the holdout
# twin already stored: bench/xml2rfc_twins.py scores it as an input)
T7 = 'trial7'
doc('legislation-xml', 'us-statute-compilation-osh-act-1970-comps-1523.uslm.xml',
    [(R_USLM, 'previous/sample-files/COMPS-1523.xml', None)], 'uslm', 'uslm',
    'Occupational Safety and Health Act of 1970 (P.L. 91-596 as amended through P.L. 116-92), GPO statute compilation '
    'in USLM 2.0: sections Sec. 1 (undesignated) - Sec. 34 > subsections > paragraphs; Sec. 2 prints its number '
    '"Sec. (2)" with a footnote marker and opens with an undesignated subsection; every section ends with an '
    'editorial [29 U.S.C. ...] note and a source credit; Sec. 3 definitions marked with <term>', split=T7)

# --- trial9 (session 14, s14-fresh): document kinds not tried before, truth from their own markup ---
# Split "trial9" for all four; ca-P-8.6 (PIPEDA) and ca-SOR-2000-203 were looked at while fixing (tuned);
# ca-B-2 and it_senato_ddl_2013 were kept aside until the fixes were done (holdout at the time, reported
# apart in docs/benchmarks.md).  The OASIS UK example (uk_pga-2014-27) was tried too but is not stored:
# its <num>s are bare ("1", "a") where the Act prints "(1)", "(a)", and ex_akn keeps them bare.
LIC['ca'] = ('Open Government Licence - Canada (repository LICENSE.md, (c) Government of Canada): copy, modify, publish '
             'and distribute with the attribution "Contains information licensed under the Open Government Licence - Canada"')
LIC['oasis_akn'] = ('CC-BY-2.0 (OASIS TC Open Repository licence, repository LICENSE/README); the legislative texts: '
                    'Italian Senate bill, official parliamentary text')
R_JUS = ('justicecanada/laws-lois-xml', 'd6853c4af2ae0b7ab8c205a0e95ee734b9945c31')
R_OASIS = ('oasis-open/legaldocml-akomantoso', 'd79ac76044de7a8d2f8c156dbceb86c8e3b0f7aa')
T9 = 'trial9'
doc('legislation-xml', 'ca-pipeda-p-8.6.justice-ca.xml', [(R_JUS, 'eng/acts/P-8.6.xml', None)], 'justice_ca', 'ca',
    'Personal Information Protection and Electronic Documents Act (S.C. 2000, c. 5), Justice Canada consolidation XML: '
    'flat <Heading level="1|2|3"> (PART 1, Interpretation, DIVISION 1.1) before the sections they govern; sections 4.01, '
    '4.1; inserted paragraphs (c.1), (d.21); Schedule 1 (the CSA Model Code, clauses 4.1-4.10 as group headings); '
    'not-in-force amendments quoted in a schedule', split=T9)
doc('legislation-xml', 'ca-radiation-protection-regulations-sor-2000-203.justice-ca.xml',
    [(R_JUS, 'eng/regulations/SOR-2000-203.xml', None)], 'justice_ca', 'ca',
    'Radiation Protection Regulations (SOR/2000-203), Justice Canada consolidation XML: headings of level 1 and 2, '
    'the level-2 heading titling the section below it (sections without marginal notes); CALS tables; Schedule 1-3', split=T9)
doc('legislation-xml', 'ca-bank-of-canada-act-b-2.justice-ca.xml', [(R_JUS, 'eng/acts/B-2.xml', None)], 'justice_ca', 'ca',
    'Bank of Canada Act (R.S.C. 1985, c. B-2), Justice Canada consolidation XML (kept aside while fixing)', split=T9)
doc('legislation-xml', 'it-senato-ddl-2013.akn.xml',
    [(R_OASIS, 'csprd02-part2-specs/csprd02-part2-specs-examples/it_senato_ddl_2013.xml', None)], 'akn', 'oasis_akn',
    'Italian Senate bill (disegno di legge, 2013), Akoma Ntoso example of the OASIS LegalDocML TC: Capo > Art. > commi '
    '(kept aside while fixing)', split=T9)
# trial 9 (s14-uslm): two public laws a fresh user tried; looked at while fixing (tuned)
doc('legislation-xml', 'us-public-law-113-67-bipartisan-budget-act.uslm.xml',
    [(R_USLM, 'previous/sample-files/113publ67-uslm.xml', None)], 'uslm', 'uslm',
    'Public Law 113-67 (Bipartisan Budget Act of 2013, H.J. Res. 59), GPO public-law USLM 2.0: Divisions > Titles > '
    'Subtitles > sections > subsections ... subclauses; inline <sidenote> margin notes inside amending sentences; '
    'quoted amendments with their own numbering and tables', split=T9)
doc('legislation-xml', 'us-public-law-114-190-faa-extension-act.uslm.xml',
    [(R_USLM, 'previous/sample-files/114publ190-uslm.xml', None)], 'uslm', 'uslm',
    'Public Law 114-190 (FAA Extension, Safety, and Security Act of 2016), GPO public-law USLM 2.0: Titles > Subtitles > '
    'sections down to subclause (VI) > item (aa) > subitem (AA); 5-digit US Code sections in references; legislative history', split=T9)
