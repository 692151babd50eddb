import { Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The page's h1, also used as the document title. */
export function PageTitle({ children }: { children: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${children} · ${t('appName')}`;
  }, [children, t]);
  return (
    <Title order={1} size="h2" mb="lg">
      {children}
    </Title>
  );
}
