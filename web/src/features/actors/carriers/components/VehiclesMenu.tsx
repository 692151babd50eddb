import { Badge, Button, List, Popover, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Car } from '../api/carriers.js';

/**
 * 'Type de véhicule': a dropdown that shows the vehicle count, then each vehicle's type,
 * registration and capacity (a list in a popover: read-only, nothing to choose).
 */
export function VehiclesMenu({ cars, owner }: { cars: Car[]; owner: string }) {
  const { t } = useTranslation('carriers');
  if (!cars.length) {
    return (
      <Text size="sm" c="dark.4">
        {t('vehicles.none')}
      </Text>
    );
  }
  return (
    <Popover position="bottom-start" withinPortal shadow="md" width={280}>
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="light"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={t('vehicles.open', { count: cars.length, name: owner })}
        >
          {t('vehicles.count', { count: cars.length })}
        </Button>
      </Popover.Target>
      <Popover.Dropdown data-testid="vehicles-dropdown">
        <List
          listStyleType="none"
          spacing="xs"
          aria-label={t('vehicles.open', { count: cars.length, name: owner })}
        >
          {cars.map((car) => (
            <List.Item key={car.id}>
              <Text size="sm" fw={600} component="span">
                {t(`carTypes.${car.carType}`)}
              </Text>{' '}
              <Badge variant="outline" size="sm" ml={4}>
                {car.registration}
              </Badge>
              <Text size="xs" c="dark.4">
                {t('vehicles.capacity', { capacity: car.capacity })}
              </Text>
            </List.Item>
          ))}
        </List>
      </Popover.Dropdown>
    </Popover>
  );
}
