import { drawQr } from '../documents/qr.js';

/** One step of the acceptance trail as printed (documents/domain/trail.ts). */
export interface PrintedStep {
  label: string;
  /** Who, as printed: a name and the party it acts for, or the platform. */
  by: string;
  at: string;
  phoneEnding: string | null;
}

/** Everything printed on a delivery contract's PDF (read by ContractPdfs, drawn here). */
export interface ContractPdfData {
  contractId: string;
  reference: string;
  status: string;
  aggregator: {
    name: string;
    organization: string | null;
    ifu: string | null;
    phone: string | null;
  };
  grower: { name: string; reference: string | null; phone: string | null };
  cooperative: { name: string; ifu: string | null } | null;
  plot: { name: string; productType: string | null; areaSown: string | null };
  quantityKg: number;
  amount: number;
  deliveryDate: string;
  delivery: {
    quantityKg: number;
    deliveredOn: string | null;
    amount: number | null;
    recovered: number | null;
    growerNet: number | null;
  } | null;
  createdAt: string;
  /** The terms version in force at the creation, its clauses filled with the contract's facts. */
  terms: { version: number; clauses: { title: string; body: string }[] };
  /** The contract's stream in French, oldest first. */
  trail: PrintedStep[];
  /** The stream's last event: where the contract stands in the ledger. */
  ledger: { position: number; hash: string; recordedAt: string } | null;
  /** The public page the QR code opens, and the document's reference on it. */
  verification: { reference: string; url: string };
}

/**
 * How advances are recovered, as contracts/domain/settlement.ts computes it (step 3 to 5): a
 * fixed article, not the template's, since it states what the platform does.
 */
export const RECOVERY_RULE =
  'Au paiement, les dettes du producteur sont déduites du montant dû, dans cet ordre : ' +
  'd’abord ses avances sur intrants et sur ananas consenties par cet agrégateur, puis ses ' +
  'financements sociaux dus aux SFD ; dans chaque groupe, la plus ancienne d’abord. Une dette ' +
  'plus grande que ce qui reste est recouvrée en partie et le reste est reporté sur le contrat ' +
  'suivant. Les avances dues à un autre agrégateur ne sont pas touchées. Le reste est le net ' +
  'du producteur, versé à son numéro mobile money lorsqu’il en a un, sinon à son portefeuille.';

/** The contract statuses as the web shows them (contracts.json `status`). */
export const STATUS_LABELS: Record<string, string> = {
  PENDING: 'En attente',
  CONFIRMED: 'Prêt pour la livraison',
  DELIVERED: 'Livraison disponible',
  COMPLETED: 'Terminé',
  OUTTIME: 'Hors délais',
  CANCELED: 'Annulé',
};

export const PRODUCT_LABELS: Record<string, string> = {
  CAYENNE_LISSE: 'Cayenne lisse',
  PAIN_DE_SUCRE: 'Pain de sucre',
};

/** Integer F CFA grouped by thousands with spaces: 1250000 → '1 250 000 F CFA'. */
export function formatFcfa(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const digits = String(Math.abs(Math.trunc(amount)));
  return `${sign}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} F CFA`;
}

/** Integer kg as tonnes with a French decimal comma: 2500 → '2,5 t'. */
export function formatTonnes(kg: number): string {
  const whole = Math.trunc(kg / 1000);
  const rest = String(kg % 1000)
    .padStart(3, '0')
    .replace(/0+$/, '');
  return `${whole}${rest ? `,${rest}` : ''} t`;
}

/** Integer price per kg = amount / kg, rounded half up (F CFA are integers). */
export function pricePerKg(amount: number, quantityKg: number): number {
  if (quantityKg <= 0) return 0;
  const den = BigInt(quantityKg);
  return Number((BigInt(amount) * 2n + den) / (den * 2n));
}

/**
 * Price per tonne = amount × 1000 / kg, rounded half up in integer arithmetic (BigInt: the
 * product may pass 2^53); F CFA are integers, so the printed price is the rounded one.
 */
export function pricePerTonne(amount: number, quantityKg: number): number {
  if (quantityKg <= 0) return 0;
  const num = BigInt(amount) * 1000n;
  const den = BigInt(quantityKg);
  return Number((num * 2n + den) / (den * 2n));
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export function formatDay(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
}

/** An instant as 'DD/MM/YYYY HH:MM' in Porto-Novo (UTC+1, no daylight saving). */
export function formatInstant(iso: string): string {
  const t = new Date(new Date(iso).getTime() + 60 * 60 * 1000).toISOString();
  return `${formatDay(t.slice(0, 10))} ${t.slice(11, 16)}`;
}

/**
 * The contract's PDF (A4, built-in Helvetica/Courier: no font files to ship). `compress: false`
 * leaves the content streams readable (tests look for the reference and the hash).
 */
export async function renderContractPdf(
  data: ContractPdfData,
  options: { compress?: boolean; now?: Date } = {},
): Promise<Buffer> {
  // Loaded at the first PDF, not with the API: pdfkit (and its font tables) is heavy to load.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: options.compress ?? true,
    info: {
      Title: `Contrat de livraison ${data.reference}`,
      Subject: 'Contrat de livraison',
      Creator: 'Filière',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const section = (title: string) => {
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor('#1f5130').text(title);
    doc
      .moveTo(doc.page.margins.left, doc.y + 2)
      .lineTo(doc.page.width - doc.page.margins.right, doc.y + 2)
      .strokeColor('#c9d8cd')
      .stroke();
    doc.moveDown(0.4).fillColor('#000000');
  };
  const line = (label: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).text(`${label} : `, { continued: true });
    doc.font('Helvetica').text(value);
  };

  const note = (text: string) =>
    doc.font('Helvetica').fontSize(9).fillColor('#333333').text(text).fillColor('#000000');

  doc
    .font('Helvetica-Bold')
    .fontSize(18)
    .fillColor('#1f5130')
    .text('Contrat de livraison d’ananas');
  doc.font('Helvetica').fontSize(11).fillColor('#000000');
  line('Référence', data.reference);
  line('Statut à l’impression', STATUS_LABELS[data.status] ?? 'Inconnu');
  line('Créé le', formatInstant(data.createdAt));
  line('Modèle de contrat', `version ${data.terms.version}`);

  section('Parties');
  const aggregator = data.aggregator.organization
    ? `${data.aggregator.name} (${data.aggregator.organization})`
    : data.aggregator.name;
  line('L’agrégateur (acheteur)', aggregator);
  if (data.aggregator.ifu) line('IFU de l’agrégateur', data.aggregator.ifu);
  line('Téléphone de l’agrégateur', data.aggregator.phone ?? 'Non renseigné');
  line(
    'Le producteur (vendeur)',
    data.grower.reference ? `${data.grower.name}, n° ${data.grower.reference}` : data.grower.name,
  );
  line('Téléphone du producteur', data.grower.phone ?? 'Non renseigné');
  if (data.cooperative) {
    line(
      'Sa coopérative',
      data.cooperative.ifu
        ? `${data.cooperative.name} (IFU ${data.cooperative.ifu})`
        : data.cooperative.name,
    );
  }

  section('Objet du contrat');
  const product = data.plot.productType ? PRODUCT_LABELS[data.plot.productType] : null;
  line('Parcelle', data.plot.name);
  if (data.plot.areaSown)
    line('Superficie', `${String(Number(data.plot.areaSown)).replace('.', ',')} ha`);
  line('Variété (qualité)', product ?? 'Non précisée');
  line('Campagne', data.deliveryDate.slice(0, 4));
  line('Quantité', formatTonnes(data.quantityKg));
  line('Prix par kilogramme', formatFcfa(pricePerKg(data.amount, data.quantityKg)));
  line('Prix par tonne', formatFcfa(pricePerTonne(data.amount, data.quantityKg)));
  line('Montant', formatFcfa(data.amount));
  line('Fenêtre de livraison', `de l’acceptation au ${formatDay(data.deliveryDate)} inclus`);

  section(`Clauses (modèle version ${data.terms.version})`);
  data.terms.clauses.forEach((clause, i) => {
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`Article ${i + 1} — ${clause.title}`);
    doc.font('Helvetica').fontSize(10).text(clause.body);
    doc.moveDown(0.4);
  });
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text(`Article ${data.terms.clauses.length + 1} — Recouvrement des avances`);
  doc.font('Helvetica').fontSize(10).text(RECOVERY_RULE);

  if (data.delivery) {
    section('Livraison');
    line('Quantité livrée', formatTonnes(data.delivery.quantityKg));
    if (data.delivery.deliveredOn) line('Livré le', formatDay(data.delivery.deliveredOn));
    if (data.delivery.amount !== null) {
      line('Montant de la livraison', formatFcfa(data.delivery.amount));
    }
    if (data.delivery.recovered !== null) {
      line('Dettes recouvrées', formatFcfa(data.delivery.recovered));
    }
    if (data.delivery.growerNet !== null) {
      line('Net versé au producteur', formatFcfa(data.delivery.growerNet));
    }
  }

  section('Historique du contrat');
  if (data.trail.length === 0) note('Aucune étape n’est encore inscrite au registre.');
  for (const step of data.trail) {
    const phone = step.phoneEnding ? `, pour le numéro se terminant par ${step.phoneEnding}` : '';
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(`${formatInstant(step.at)} — ${step.label}`, { continued: true });
    doc.font('Helvetica').text(` : ${step.by}${phone}`);
  }

  section('Vérification');
  if (data.ledger) {
    line('Position dans le registre', String(data.ledger.position));
    line('Inscrit le', formatInstant(data.ledger.recordedAt));
    doc.font('Helvetica-Bold').fontSize(10).text('Empreinte (SHA-256) :');
    doc.font('Courier').fontSize(9).text(data.ledger.hash);
    doc.moveDown(0.4);
  }
  note(
    'Scannez le code QR ou ouvrez l’adresse ci-dessous : la page publique montre le statut du ' +
      'contrat aujourd’hui et son empreinte dans le registre, sans aucun nom ni numéro.',
  );
  drawQr(doc, data.verification.url);
  doc.font('Courier').fontSize(9).text(data.verification.url);
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text(
      'L’empreinte chaîne la dernière étape du contrat à toutes celles qui la précèdent dans le ' +
        'registre : toute modification la rendrait invalide.',
    );

  doc
    .moveDown(1)
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text(
      `Document généré le ${formatInstant((options.now ?? new Date()).toISOString())} — référence de vérification ${data.verification.reference}`,
    );
  doc.end();
  return done;
}
