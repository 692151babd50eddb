import { Anchor, Container, Group, Paper, Stepper, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../shared/api/use-error-text.js';
import { useRealtime } from '../../../shared/realtime/use-realtime.js';
import { PageTitle } from '../../../shared/ui/PageTitle.js';
import { seasonQuery } from '../model/index.js';
import { SeasonGeneralStep } from './SeasonGeneralStep.js';
import { SeasonIndustrialsStep } from './SeasonIndustrialsStep.js';

/**
 * The create / edit wizard (spec §2.8): 'Ajouter une saison' or 'Modifier la saison', step 1
 * 'Informations générales' (saving creates or updates the season, then step 2), step 2
 * 'Agrégateurs' (the industrials table, 'Enregistrer'). The season's id and the step live in
 * the URL (`?id=&step=`), so a reload keeps the saved season.
 */
export function SeasonWizardPage({
  seasonId,
  step,
  onStepChange,
}: {
  seasonId: number | undefined;
  step: number;
  onStepChange: (next: { id: number | undefined; step: number }) => void;
}) {
  const { t } = useTranslation('seasons');
  const errorText = useErrorText();
  const season = useQuery({ ...seasonQuery(seasonId ?? 0), enabled: seasonId !== undefined });
  const editing = seasonId !== undefined;
  // The `seasons.*` pushes (an acceptance, an expiry, the read side catching up) refresh it.
  useRealtime();
  return (
    <Container size="lg" py="lg">
      <Anchor component={Link} to="/saisons" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={16} aria-hidden />
          {t('detail.back')}
        </Group>
      </Anchor>
      <PageTitle>{t(editing ? 'wizard.editTitle' : 'wizard.createTitle')}</PageTitle>
      <Paper withBorder p="lg" radius="md">
        <Stepper
          active={step - 1}
          onStepClick={(index) => editing && onStepChange({ id: seasonId, step: index + 1 })}
          allowNextStepsSelect={editing}
          aria-label={t('wizard.steps')}
          mb="lg"
        >
          <Stepper.Step label={t('wizard.step1')} />
          <Stepper.Step label={t('wizard.step2')} />
        </Stepper>
        {editing && season.isError && (
          <Text c="red.8" role="alert">
            {errorText(season.error)}
          </Text>
        )}
        {editing && season.isLoading && <Text c="dimmed">{t('common:loading')}</Text>}
        {step === 1 && (!editing || season.data) && (
          <SeasonGeneralStep
            key={seasonId ?? 'new'}
            season={season.data ?? null}
            onSaved={(id) => onStepChange({ id, step: 2 })}
          />
        )}
        {step === 2 && seasonId !== undefined && season.data && (
          <SeasonIndustrialsStep
            season={season.data}
            onPrevious={() => onStepChange({ id: seasonId, step: 1 })}
          />
        )}
      </Paper>
    </Container>
  );
}
